"""The Gymnasium environment: one game of Foursquare an episode, seen as the player sees it.

:class:`FoursquareEnv` is a :class:`gymnasium.Env`.  An action is a cell of the
frame (RULES.md §3), numbered in reading order: action ``row * frame + column``
(``0`` is ``a1``, ``24`` is ``d4`` of the standard 7×7 frame).  The observation is
only what the player sees (RULES.md §6): the layout, the card in hand, which
cards are unseen as counts per rank, the face-down count and limit, and the stock
size; never the order of the stock.  The legal actions are ``info["action_mask"]``
(``int8``, 1 = legal) and :meth:`FoursquareEnv.action_masks`.

The observation is kept up to date move by move (the cell played, the cells
flipped, the new card in hand), never rebuilt; each call returns fresh arrays.

    >>> import foursquare.gym  # registers Foursquare-v0 and one id a preset
    >>> import gymnasium
    >>> env = gymnasium.make("Foursquare-v0")
    >>> obs, info = env.reset(options={"deal": 1})
    >>> info["deal"], int(obs["card"][0]), int(info["action_mask"].sum())
    (1, 2, 49)
    >>> obs, reward, terminated, truncated, info = env.step(24)  # d4
    >>> int(obs["rank"][3, 3]), int(obs["stock"][0]), int(info["action_mask"].sum())
    (2, 39, 5)
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from typing import Any, SupportsFloat, cast

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from numpy.typing import NDArray

from ..engine.arguments import as_cell
from ..engine.deal import MAX_DEAL
from ..engine.frame import frame_of
from ..engine.game import Game, PlayerView, Status
from ..engine.layout import COLUMN_LETTERS, Cell
from ..engine.outcome import outcome_words
from ..engine.rules import PRESETS, RANGES, STANDARD, Rules
from ..errors import ArgumentError, FoursquareError, IllegalMoveError, ParseError, PositionError, RulesError, quote
from ..solver import DEFAULT_MAX_NODES, NO_WIN, SOLVED, solve

#: The observation: field name -> a fresh ``int8`` array.
Observation = dict[str, NDArray[np.int8]]
#: How an illegal action is met: an error, or the episode lost.
ILLEGAL = ("raise", "lose")
#: What a finished episode is worth: its score (cards left in the stock at a win), or 1 for a win.
REWARDS = ("score", "win")
#: Deals drawn at a reset are below this (2^63): ``info["deal"]`` then fits NumPy's ``int64``,
#: which vector environments stack the infos of their environments in.
DRAWN_DEALS = 2**63
#: The reason ``info["reason"]`` gives when ``illegal="lose"`` ended the episode.
ILLEGAL_ACTION = "illegal-action"


class EnvArgumentError(ArgumentError, gymnasium.error.Error):
    """An argument the environment does not take (``illegal="skip"``, a ``deck`` option
    that is no whole deck): an :class:`~foursquare.errors.ArgumentError` and a
    :class:`gymnasium.error.Error`."""


class InvalidActionError(ArgumentError, gymnasium.error.InvalidAction):
    """An action that is no action of the space: out of ``0 .. n-1``, or not a whole number."""


class IllegalActionError(IllegalMoveError, gymnasium.error.InvalidAction):
    """An action whose cell the position forbids (RULES.md §3); the message says why.
    Raised when the environment was made with ``illegal="raise"`` (the default)."""


class ResetNeededError(FoursquareError, gymnasium.error.ResetNeeded):
    """A step with no game going on: before the first ``reset()``, or after the episode ended."""


def _choice(value: object, name: str, allowed: tuple[str, ...]) -> str:
    if isinstance(value, str) and value in allowed:
        return value
    raise EnvArgumentError(f"FoursquareEnv: {name} must be one of {', '.join(map(repr, allowed))}, not {quote(value)}")


def _deal_number(deal: object, where: str) -> int:
    """A deal number (RULES.md §2), a NumPy integer too; a :class:`ParseError` said by ``where`` else."""
    if isinstance(deal, np.integer):
        deal = int(deal)
    if type(deal) is not int or not 0 <= deal <= MAX_DEAL:
        raise ParseError(f"{where}: not a deal number: {quote(deal)} (expected a whole number from 0 to {MAX_DEAL})")
    return deal


def observation_space(rules: Rules) -> spaces.Dict:
    """The observation space of a rule set: a :class:`gymnasium.spaces.Dict` of ``int8`` boxes.

    ``F`` is the frame's side (7 standard), ``R`` the ranks (10), ``S`` the suits (4):

    - ``rank`` (F, F), 0 .. R: the top card's rank of each cell's pile, 0 for an empty
      cell (a face-down card's too: the player saw it placed, RULES.md §6);
    - ``face_up`` (F, F), 0 .. 1: 1 where the top card is face up;
    - ``height`` (F, F), 0 .. pile cap: the pile's cards;
    - ``card`` (1,), 0 .. R: the rank of the card in hand, 0 when the game is over;
    - ``unseen`` (R,), 0 .. S: the unseen cards (not on the grid, not in hand) of each
      rank, ace first: which cards are unseen, never their order;
    - ``face_down`` (1,), 0 .. size²: the face-down top cards (D of RULES.md §5);
    - ``face_down_limit`` (1,): the most face down that does not lose (4 standard);
    - ``stock`` (1,), 0 .. deck: the cards not yet placed, the card in hand included.

    Suits never matter to play (RULES.md §1), so the observation holds ranks.
    """
    grid = (rules.frame, rules.frame)
    return spaces.Dict({
        "rank": spaces.Box(0, rules.ranks, grid, np.int8),
        "face_up": spaces.Box(0, 1, grid, np.int8),
        "height": spaces.Box(0, rules.pile_cap, grid, np.int8),
        "card": spaces.Box(0, rules.ranks, (1,), np.int8),
        "unseen": spaces.Box(0, rules.suits, (rules.ranks,), np.int8),
        "face_down": spaces.Box(0, rules.size * rules.size, (1,), np.int8),
        "face_down_limit": spaces.Box(*RANGES["face_down_limit"], (1,), np.int8),
        "stock": spaces.Box(0, rules.deck_size, (1,), np.int8),
    })


class FoursquareEnv(gymnasium.Env[Observation, np.int64]):
    """One game of Foursquare an episode (RULES.md), the player's view as the observation.

    Made by ``gymnasium.make("Foursquare-v0", rules=..., deal=None)``, or one id a
    preset (``Foursquare-ThreeSquare-v0``: :data:`foursquare.gym.ENV_IDS`).

    :param rules: the rule set: a :class:`~foursquare.engine.rules.Rules` value or a
        preset's name (RULES.md §8; default ``standard``).
    :param deal: a deal number (RULES.md §2) every episode plays, or ``None`` (the
        default) to draw one at each reset from the environment's seeded generator.
    :param illegal: ``"raise"`` (the default): an illegal action raises
        :class:`IllegalActionError`; ``"lose"``: it ends the episode as a loss,
        reward 0, ``info["reason"] == "illegal-action"``.
    :param reward: ``"score"`` (the default): a win is worth its score (cards left in the
        stock, RULES.md §5), a loss 0; ``"win"``: a win is worth 1, a loss 0.  Every
        other step is worth 0.
    :param render_mode: ``"ansi"`` (:meth:`render` returns the grid as text) or ``None``.
    :param best_score: ``True``: each reset solves the deal with the stock's order known
        (the solver of ``foursquare solve``, clairvoyant: no player knows the order) and
        gives the best return any play of it could earn, as ``info["best_score"]`` at the
        reset and again at the end of the episode: a float under the ``reward`` chosen
        (the best score, or 1.0 for a win; 0.0 when no play of the deal wins), or NaN
        when the solver's limit (``DEFAULT_MAX_NODES`` positions) runs out first.  The
        episode's regret is ``info["best_score"]`` minus its return.  Its cost: a solve a
        reset, milliseconds for most deals with the compiled core, seconds for the
        hardest (docs/guide/training.md).  ``False`` (the default): not computed.
    :raises RulesError: for an unknown rule set.
    :raises ParseError: for a ``deal`` that is no deal number.
    :raises EnvArgumentError: for another argument the environment does not take.
    """

    #: ``render_fps``: Gymnasium's renderers ask for one; text has no frame rate of its own.
    #: ``autoreset_mode``: the vector environments' autoreset this environment is written
    #: and tested for (Gymnasium's default): the step after the end of an episode resets it.
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4, "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        rules: Rules | str = STANDARD,
        deal: int | None = None,
        illegal: str = "raise",
        reward: str = "score",
        render_mode: str | None = None,
        best_score: bool = False,
    ) -> None:
        known = PRESETS.get(rules, rules) if isinstance(rules, str) else rules
        if not isinstance(known, Rules):
            raise RulesError(f"FoursquareEnv: rules must be a Rules value or a preset's name ({', '.join(PRESETS)}), not {quote(rules)}")
        self.rules = known
        if not isinstance(best_score, bool):
            raise EnvArgumentError(f"FoursquareEnv: best_score must be True or False, not {quote(best_score)}")
        self._solves = best_score
        self._fixed_deal = None if deal is None else _deal_number(deal, "FoursquareEnv")
        self._loses = _choice(illegal, "illegal", ILLEGAL) == "lose"
        self._wins_only = _choice(reward, "reward", REWARDS) == "win"
        if render_mode is not None:
            _choice(render_mode, "render_mode", ("ansi",))
        self.render_mode = render_mode
        self.frame = self.rules.frame
        self.observation_space = cast("spaces.Space[Observation]", observation_space(self.rules))
        #: action -> cell, and cell number (``row * 16 + column``) -> action: the frame's compact
        #: indexing (an action is a compact index)
        tables = frame_of(self.rules)
        self.action_space = spaces.Discrete(tables.ncells)
        self._cells: list[Cell] = tables.to_cell
        self._actions: dict[int, int] = tables.from_cell
        self._game: Game | None = None
        #: how the episode ended (``lost``, ``won``, ``lost, illegal-action``), ``None`` while it goes
        #: on; the observation's figures are made by each reset
        self._ended: str | None = "no game"
        #: the legal actions now, by action (1 = legal): none while no game goes on
        self._mask = np.zeros(tables.ncells, np.int8)

    # ------------------------------------------------------------ the episode

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """Start a new game: a deal drawn from the seeded generator, unless named.

        :param seed: seeds the generator that draws the deal numbers (Gymnasium's
            ``np_random``, from 0 to 2^63 - 1: :data:`DRAWN_DEALS`); the same seed gives the same deals.
        :param options: ``{"deal": N}`` plays deal number N (RULES.md §2: replay it with
            ``foursquare replay``); ``{"deck": cards}`` plays a whole deck in that order,
            top first (cards as text like ``7H`` or :class:`~foursquare.engine.cards.Card`).
            Without them, the ``deal`` the environment was made with, else a drawn one.
        :returns: the observation and ``info``: ``deal`` (the deal number, ``None`` for a
            deck) and ``action_mask``.
        :raises ParseError: for a deal that is no deal number or a card that is no card.
        :raises PositionError: for a deck with a card twice.
        :raises EnvArgumentError: for another option, or a deck that is not whole.
        """
        super().reset(seed=seed)
        game = self._game = self._new_game(options or {})
        self._ended = None
        #: the grids, flat (indexed by action), reshaped to (frame, frame) in each observation
        self._rank, self._face_up, self._height = np.zeros((3, len(self._cells)), np.int8)
        self._unseen = np.full(self.rules.ranks, self.rules.suits, np.int8)
        self._next_card(game)
        info: dict[str, Any] = {"deal": game.deal, "action_mask": self._mask.copy()}
        if self._solves:  # the best return of the game's deal, the stock's order known
            solution = solve(game, max_nodes=DEFAULT_MAX_NODES)
            best = 0.0 if solution.status is NO_WIN else float("nan")
            if solution.status is SOLVED and solution.score is not None:
                best = 1.0 if self._wins_only else float(solution.score)
            self._best = info["best_score"] = best
        return self._observation(game), info

    def _new_game(self, options: dict[str, Any]) -> Game:
        if not isinstance(options, dict) or not set(options) <= {"deal", "deck"} or len(options) > 1:
            raise EnvArgumentError(
                f"FoursquareEnv.reset: options must be {{}}, {{'deal': N}} or {{'deck': cards}}, not {quote(options)}"
            )
        if "deck" in options:
            deck = options["deck"]
            if not isinstance(deck, Sequence) or isinstance(deck, str) or len(deck) != self.rules.deck_size:
                raise EnvArgumentError(
                    f"FoursquareEnv.reset: the deck option must list all {self.rules.deck_size} cards of the deck, top first"
                )
            try:
                return Game(deck, self.rules)
            except (ParseError, PositionError) as error:  # said from here, not from inside the engine
                raise type(error)(f"FoursquareEnv.reset: the deck option: {error}") from None
        deal = options.get("deal", self._fixed_deal)
        if deal is None:
            deal = int(self.np_random.integers(0, DRAWN_DEALS))
        return Game.from_deal(_deal_number(deal, "FoursquareEnv.reset"), self.rules)

    def step(self, action: np.int64 | int) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Place the card in hand on the action's cell, flip (RULES.md §4), end the turn (§5).

        :param action: a cell of the frame, ``row * frame + column``; legal where
            ``info["action_mask"]`` is 1.
        :returns: ``(observation, reward, terminated, truncated, info)``: the reward is 0
            until the end (see ``reward``); ``terminated`` when the game is over;
            ``truncated`` never (a game is at most a deck long).  ``info`` holds
            ``action_mask``, and at the end ``status`` (``won``/``lost``), ``reason``
            (RULES.md §5's token, or ``illegal-action``) and ``score``.
        :raises InvalidActionError: for an action out of the space or not a whole number.
        :raises IllegalActionError: for an illegal cell, with ``illegal="raise"``.
        :raises ResetNeededError: before the first reset and after the end of the episode.
        """
        a = self._action_index(action)
        game = self._going("step")
        if self._ended is not None:
            raise ResetNeededError(f"FoursquareEnv.step: the episode is over ({self._ended}): call reset() to start another")
        if self._mask[a]:
            record = game.play(self._cells[a])
            # the observation after it: the cell played, the cells flipped, the next card
            self._rank[a] = record.card >> 2
            self._height[a] += 1
            self._face_up[a] = 1
            for cell in record.flipped:
                self._face_up[self._actions[cell]] ^= 1
            self._next_card(game)
            if record.status is Status.PLAYING:
                return self._observation(game), 0.0, False, False, {"action_mask": self._mask.copy()}
            self._ended = status = record.status.value
            reason, score = (None if record.reason is None else record.reason.value), record.score
        elif not self._loses:
            raise IllegalActionError(
                f"FoursquareEnv.step: action {a} ({self._cells[a]}) is illegal: {game.why_illegal(self._cells[a])} "
                "(info['action_mask'] marks the legal actions)"
            )
        else:
            self._ended = f"lost, {ILLEGAL_ACTION}"
            self._card = 0  # the game is over: no card in hand (the observation's table)
            self._mask = np.zeros(len(self._cells), np.int8)
            status, reason, score = Status.LOST.value, ILLEGAL_ACTION, None
        info = {"action_mask": self._mask.copy(), "status": status, "reason": reason, "score": score}
        if self._solves:  # the deal's best return, asked for
            info["best_score"] = self._best
        return self._observation(game), 0.0 if score is None else 1.0 if self._wins_only else float(score), True, False, info

    def _action_index(self, action: object, where: str = "FoursquareEnv.step") -> int:
        try:
            if isinstance(action, (bool, np.bool_)):
                raise TypeError
            a = operator.index(action)  # type: ignore[arg-type]
        except TypeError:
            raise InvalidActionError(
                f"{where}: action must be a whole number from 0 to {len(self._cells) - 1}, not {quote(action)}"
            ) from None
        if not 0 <= a < len(self._cells):
            raise InvalidActionError(
                f"{where}: action {a} is out of range: the actions are 0 to {len(self._cells) - 1}, "
                f"the cells a1 to {self._cells[-1]} row by row"
            )
        return a

    def _going(self, method: str) -> Game:
        """The episode's game (the last one, when it is over).

        :raises ResetNeededError: before the first reset, naming ``method``.
        """
        if self._game is None:
            raise ResetNeededError(f"FoursquareEnv.{method}: no game yet: call reset() first")
        return self._game

    def _next_card(self, game: Game) -> None:
        """The card in hand taken out of the unseen cards, and the legal actions for it."""
        self._card = 0 if game.next_card is None else game.next_card >> 2
        if self._card:
            self._unseen[self._card - 1] -= 1
        self._mask = np.zeros(len(self._cells), np.int8)
        self._mask[[self._actions[c] for c in game.legal_cells()]] = 1

    def _observation(self, game: Game) -> Observation:
        # the grids, the card in hand and the unseen counts kept here; the game's own counts
        return {
            "rank": self._rank.reshape(self.frame, self.frame).copy(),
            "face_up": self._face_up.reshape(self.frame, self.frame).copy(),
            "height": self._height.reshape(self.frame, self.frame).copy(),
            "card": np.array((self._card,), np.int8),
            "unseen": self._unseen.copy(),
            "face_down": np.array((game.face_down,), np.int8),
            "face_down_limit": np.array((self.rules.face_down_limit,), np.int8),
            "stock": np.array((game.stock_count,), np.int8),
        }

    # ------------------------------------------------------------ what else an agent may ask

    def action_masks(self) -> NDArray[np.int8]:
        """The legal actions now: ``int8``, 1 = legal (the name ``sb3_contrib``'s MaskablePPO calls);
        all 0 when no game is going on.  A fresh array each call."""
        return self._mask.copy()

    def cell_of(self, action: int) -> Cell:
        """The cell of an action (``24`` is ``d4`` of the standard frame).

        :raises InvalidActionError: for an action out of the space.
        """
        return self._cells[self._action_index(action, "FoursquareEnv.cell_of")]

    def action_of(self, cell: Cell | str) -> int:
        """The action of a cell (a :class:`~foursquare.engine.layout.Cell` or a name like ``d4``).

        :raises ParseError: for text that is no cell name, or anything else (a plain ``int`` too).
        :raises InvalidActionError: for a cell outside the frame.
        """
        try:
            c = as_cell(cell, "FoursquareEnv.action_of")
        except ParseError as error:
            text = str(error)
            raise ParseError(text if text.startswith("FoursquareEnv.") else f"FoursquareEnv.action_of: {text}") from None
        if c not in self._actions:
            raise InvalidActionError(f"FoursquareEnv.action_of: {c} is outside the frame (a1 to {self._cells[-1]})")
        return self._actions[c]

    @property
    def deal(self) -> int | None:
        """The deal number of the episode (``None`` before the first reset, or for a deck)."""
        return None if self._game is None else self._game.deal

    @property
    def placed(self) -> int:
        """The cards placed in this episode (0 before the first reset)."""
        return 0 if self._game is None else self._game.placed

    def view(self) -> PlayerView:
        """The player's view (RULES.md §6), for a bot (:class:`foursquare.gym.BotPlayer`): the
        layout, the card in hand and which cards are unseen, never their order.

        :raises ResetNeededError: before the first reset.
        """
        return self._going("view").view()

    def transcript(self) -> str:
        """The episode as a transcript (FORMATS.md "Transcripts"), every claim written:
        ``foursquare validate`` accepts it and ``foursquare replay`` shows it.  An episode
        ended by an illegal action is the game as far as it went (status ``playing``).

        :raises ResetNeededError: before the first reset.
        """
        return self._going("transcript").transcript()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``, the position as text, what the player sees (RULES.md
        §6); else ``None``.  Two status lines (the card in hand or the end of the game; the
        stock, the face-down count and its limit), then the whole frame, since each of its
        cells is an action, 6 characters a column: a pile shows its top card and height
        (``9D:2``), ``##`` a face-down top card, ``+`` an empty cell where the card in hand
        may go, ``.`` one where it may not; the same marks as the prompt's drawing
        (``foursquare play``), which draws only the region that matters.  No final newline.

            >>> env = FoursquareEnv("three-square", render_mode="ansi")
            >>> _ = env.reset(options={"deal": 1})
            >>> for cell in ("c3", "d3", "c2"):
            ...     _ = env.step(env.action_of(cell))
            >>> print(env.render())
            Card to place: 7H
            Stock: 37   Face down: 0 (limit 2)
                  a     b     c     d     e
             1    .     .     +     .     .
             2    .     +    7D:1   +     .
             3    .     +    2D:1  3C:1   +
             4    .     .     +     +     .
             5    .     .     .     .     .
        """
        game = self._game
        if self.render_mode != "ansi":
            return None
        if game is None:
            return "no game yet: call reset()"
        f = self.frame
        lines = [
            (f"Game over: {outcome_words(game.status, game.reason, score=game.score)}" if game.is_over
             else f"Card to place: {game.next_card}"),
            f"Stock: {game.stock_count}   Face down: {game.face_down} (limit {game.rules.face_down_limit})",
            ("   " + "".join(f"   {COLUMN_LETTERS[c]}  " for c in range(f))).rstrip(),
        ]
        legal = set(game.legal_cells())
        for r in range(f):
            parts = [f"{r + 1:>2} "]
            for cell in self._cells[r * f : (r + 1) * f]:
                pile = game.pile(cell)
                if pile is None:
                    parts.append("   " + ("+" if cell in legal else ".") + "  ")
                else:
                    parts.append(f"  {str(pile.top) if pile.face_up else '##'}:{len(pile.cards)}")
            lines.append("".join(parts).rstrip())
        return "\n".join(lines)


def sample_legal(mask: NDArray[np.int8], rng: random.Random) -> int:
    """A uniformly random legal action of a mask (1 = legal), drawn with ``rng``.

    :param mask: one environment's mask (``info["action_mask"]``): a 1-D array, or a
        list, of 0 and 1.  A vector environment's masks are one row each: sample each row.
    :raises EnvArgumentError: for a mask that is not 1-D, or when no action is legal (the
        episode is over).
    """
    array: NDArray[Any]
    try:
        array = np.asarray(mask)
    except (TypeError, ValueError):
        array = np.zeros((0, 0))
    if array.ndim != 1 or not (np.issubdtype(array.dtype, np.integer) or array.dtype == np.bool_):
        raise EnvArgumentError(
            f"sample_legal: mask must be one environment's mask, a 1-D array of 0 and 1, not {quote(mask)}"
            + (" (a vector environment's masks: sample each row)" if array.ndim == 2 else "")
        )
    legal = array.nonzero()[0]
    if not len(legal):
        raise EnvArgumentError("sample_legal: no action is legal (the episode is over)")
    return int(legal[int(rng.random() * len(legal))])


__all__ = [
    "DRAWN_DEALS", "EnvArgumentError", "FoursquareEnv", "ILLEGAL", "ILLEGAL_ACTION", "IllegalActionError", "InvalidActionError",
    "Observation", "REWARDS", "ResetNeededError", "observation_space", "sample_legal",
]
