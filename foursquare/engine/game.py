"""The game: placements, flips and the end of each turn (RULES.md §3–5), and the player's view (§6).

:class:`Game` is the whole state of one game under a :class:`~foursquare.engine.rules.Rules`
value, with legal cells, :meth:`Game.play` / :meth:`Game.undo` as a stack, a
copy, and the outcome.  Each rule lives in one method:

- §3 placement: :meth:`Game.why_illegal` (:meth:`Game.play` and
  :meth:`Game.legal_cells` write the same test out for speed);
- §4 flip: :meth:`Game._flip_line`, once for the row and once for the column;
- §5 end of the turn: :meth:`Game._end_of_turn`;
- §6 information: :class:`PlayerView` (also importable from
  :mod:`foursquare.engine.view`), defined here because a game and its view are
  built from each other (:meth:`Game.view`, :meth:`PlayerView.sample`).

For speed (``benchmarks/bench_engine.py``) the game keeps, besides the piles,
a few tables that it updates at each placement and undo instead of recomputing
them: the occupied cells of each row and column (the lines of §4), the number
of piles next to each cell, whether each cell may take a card as far as piles
and neighbours go, and the window of cells the 4×4 box still allows (§3).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..errors import IllegalMoveError, ParseError, PositionError, wrong_argument
from .arguments import as_card, as_cell, as_sequence, check
from .cards import Card
from .deal import check_deal_number, deal_deck, ordered_deck
from .frame import frame_of
from .layout import CELL_NAMES, CELLS, STRIDE, Cell, Window, window
from .outcome import Reason as Reason  # re-exported: the game's end, with the game
from .outcome import Status as Status
from .outcome import outcome_words
from .rules import STANDARD, Adjacency, Comparison, Rules, Ties, as_rules


class Placement(NamedTuple):
    """The record of one placement: what was placed where and what followed.

    :ivar card: the card placed.
    :ivar cell: where it went (a cell like ``d4``).
    :ivar flipped: the cells whose top card flipped, sorted as their names sort
        as text (RULES.md §9).
    :ivar face_down: the number of face-down top cards after the turn.
    :ivar status: the status after the turn.
    :ivar reason: why the game was lost, or ``None``.
    :ivar score: the score when this placement won, else ``None``.
    """

    card: Card
    cell: Cell
    flipped: tuple[Cell, ...]
    face_down: int
    status: Status
    reason: Reason | None = None
    score: int | None = None


class Pile(NamedTuple):
    """One pile: its cards bottom to top and whether the top card is face up."""

    cards: tuple[Card, ...]
    face_up: bool

    @property
    def top(self) -> Card:
        """The top card, the only one that matters for play (RULES.md §3)."""
        return self.cards[-1]


class Grid(dict[Cell, Pile]):
    """Every pile by cell, in reading order: a ``dict`` in which a cell may also be named
    by its text (``grid["d4"]``, ``"d4" in grid``, ``grid.get("d4")``).

    :raises ParseError: for a text that is not a cell name."""

    def __getitem__(self, key: Cell | str) -> Pile:
        return super().__getitem__(Cell.parse(key) if isinstance(key, str) else key)

    def __contains__(self, key: object) -> bool:
        return super().__contains__(Cell.parse(key) if isinstance(key, str) else key)

    def get(self, key: Cell | str, default: Pile | None = None) -> Pile | None:  # type: ignore[override]
        return self[key] if key in self else default


_PLAYING = Status.PLAYING
_SIZE = STRIDE * STRIDE
#: Builds a Placement from a tuple of its seven fields without the keyword
#: handling of ``Placement(...)``: one record is made per placement.
_new_placement: Callable[[type[Placement], tuple[Any, ...]], Placement] = tuple.__new__
#: A pile given to :meth:`Game.from_position`: (cards bottom to top, top face up?).
_PileSpec = tuple[Sequence[Card | str], bool]


class Game:
    """One game of Foursquare from a known card order.

    Build it with :meth:`from_deal` (a deal number, RULES.md §2) or from a card
    order: ``Game(deck)``, where ``deck`` lists cards top first (text like
    ``7H`` or :class:`Card`).  The deck may be a prefix of the stock: the cards
    beyond it are unknown, and each move past it must name its card.

    :param deck: cards top first, at most the rule set's deck size, no card twice.
    :param rules: the rule set (default: the standard rules), or a preset's name
        like ``"three-square"``.
    :param deal: the deal number the deck came from, when there is one.
    :ivar rules: the rule set (a :class:`~foursquare.Rules`).
    :ivar deal: the deal number, or ``None`` for a game from a deck.
    :raises ParseError: for a card that is not a card (a plain ``int`` too), or not in
        the rule set's deck.
    :raises PositionError: for a deck with a repeated card (a ``ValueError`` too), so
        also for more cards than the rule set's deck holds.
    :raises RulesError: for ``rules`` that is no rule set nor a preset's name.
    :raises ArgumentError: for a deck that is not a sequence (text too).
    """

    def __init__(self, deck: Sequence[Card | str] = (), rules: Rules | str = STANDARD, deal: int | None = None) -> None:
        self.rules = rules = as_rules(rules, "Game")
        self.deal = None if deal is None else check_deal_number(deal)
        self._deck = [c if type(c) is Card else as_card(c, "Game", "each card of deck") for c in as_sequence(deck, "Game", "deck")]
        self._check_cards(self._deck, "the deck")  # so no more cards than the deck's
        self._geo = frame_of(rules)
        self._n_cells = rules.size * rules.size
        self._cap = rules.pile_cap
        self._limit = rules.face_down_limit
        self._total = rules.deck_size
        # RULES.md §5 point 4: no legal cell is left exactly when ``room`` cards
        # are placed (every pile full); -1 when that cannot happen (Rules.can_run_out_of_room).
        self._room = rules.room if rules.can_run_out_of_room else -1
        self._sees_all = rules.comparison is Comparison.ALL
        self._ties_count = rules.ties is Ties.COUNT
        self._self_flip = rules.self_flip
        self._piles: dict[Cell, list[Card]] = {}  # cell -> cards bottom to top
        self._h = [0] * _SIZE  # pile height by cell
        self._rank = [0] * _SIZE  # rank of the top card by cell (0: no pile)
        self._up = [False] * _SIZE  # is the top card face up
        self._npiles = 0
        self._box = (STRIDE, -1, STRIDE, -1)  # top row, bottom row, left column, right column
        # Tables kept up to date by _add_pile / undo and the pile heights:
        self._rows: list[list[Cell]] = [[] for _ in range(self._geo.frame)]  # occupied cells of each row
        self._cols: list[list[Cell]] = [[] for _ in range(self._geo.frame)]  # occupied cells of each column
        self._nb = [0] * _SIZE  # number of piles adjacent to each cell
        # May the next card go there, as far as piles and neighbours go: every cell
        # of the frame before the first card; then a pile with room, or an empty
        # cell next to a pile.
        self._open = list(self._geo.inside)
        self._window = window(rules.frame, rules.size, self._box)  # the cells the box allows
        self._down = 0
        self._placed = 0
        self._status: Status = _PLAYING
        self._reason: Reason | None = None
        self._score: int | None = None
        self._moves: list[Placement] = []
        # what undo restores of each placement: the cell's face before it, the box and
        # window, the face-down count, the length of the known deck
        self._undo: list[tuple[bool, tuple[int, int, int, int], Window, int, int]] = []

    # ----------------------------------------------------------------- set-up

    @classmethod
    def from_deal(cls, deal: int, rules: Rules | str = STANDARD) -> Game:
        """A new game on deal number ``deal`` (0 ≤ deal < 2^64, RULES.md §2).

        :param rules: the rule set, or a preset's name like ``"three-square"``.
        :raises ParseError: when ``deal`` is not a deal number.
        :raises RulesError: for ``rules`` that is no rule set nor a preset's name (the message lists them).
        """
        rules = as_rules(rules, "Game.from_deal")
        return cls(deal_deck(deal, rules), rules, deal)

    @classmethod
    def from_position(
        cls,
        grid: Mapping[Cell, _PileSpec] | Mapping[str, _PileSpec] | Mapping[Cell | str, _PileSpec],
        stock: Sequence[Card | str],
        rules: Rules | str = STANDARD,
        deal: int | None = None,
    ) -> Game:
        """A game resumed from a position with no history (a saved state).

        The status is decided as at the end of a turn (RULES.md §5).

        :param grid: cell (like ``d4``) -> (cards bottom to top, top face up?).
        :param stock: the cards not yet placed, next card first (may be a prefix).
        :param rules: the rule set, or a preset's name.
        :param deal: the deal number, when known (informative).
        :returns: a game whose :attr:`moves` start empty; :meth:`undo` stops there.
        :raises ParseError: for text that is not a cell or a card, or a card not in the deck.
        :raises PositionError: when the position breaks the rules' shape (RULES.md §3:
            a pile too high, piles not fitting the box or not connected, a cell
            outside the frame; §1: a card twice, more cards than the deck).
        :raises RulesError: as :class:`Game`.
        :raises ArgumentError: for a grid that is not a mapping of cells to (cards, face
            up?) pairs, or a stock that is not a sequence.
        """
        game = cls((), rules, deal)
        rules = game.rules
        geo = game._geo
        where = "Game.from_position"
        if not isinstance(grid, Mapping):
            raise wrong_argument(where, "grid", "a mapping (a dict)", grid)
        for name, spec in grid.items():
            cell = as_cell(name, where, "each cell of grid")
            named = f"grid[{str(cell)!r}]"
            if not (isinstance(spec, (tuple, list)) and len(spec) == 2):
                raise wrong_argument(where, named, "a pair (cards bottom to top, top face up?)", spec)
            cards, face_up = spec
            pile = [as_card(c, where, f"each card of {named}") for c in as_sequence(cards, where, f"{named}'s cards")]
            if not geo.inside[cell]:
                raise PositionError(f"cell {CELLS[cell]} is outside the frame ({geo.corner})")
            if not 1 <= len(pile) <= rules.pile_cap:
                raise PositionError(f"pile {CELLS[cell]} has {len(pile)} cards (1 to {rules.pile_cap} allowed)")
            if type(face_up) is not bool:
                raise PositionError(f"pile {CELLS[cell]}: face must be up or down")
            if cell in game._piles:
                raise PositionError(f"cell {cell} is given twice")
            game._add_pile(cell)
            game._piles[cell] = pile
            game._h[cell] = len(pile)
            game._open[cell] = len(pile) < rules.pile_cap
            game._rank[cell] = pile[-1] >> 2
            game._up[cell] = face_up
            game._down += not face_up
        r0, r1, c0, c1 = game._box  # the piles' rows and columns (_add_pile keeps it)
        if r1 - r0 >= rules.size or c1 - c0 >= rules.size:
            raise PositionError(f"the piles do not fit in {rules.size} rows and {rules.size} columns")
        todo = [int(c) for c in game._piles][:1]  # RULES.md §3: the piles make one group of cells next to each other
        seen = set(todo)
        while todo:
            for n in geo.neighbours[todo.pop()]:
                if game._h[n] and n not in seen:
                    seen.add(n)
                    todo.append(n)
        if len(seen) < game._npiles:
            raise PositionError("the piles are not connected")
        # the deck: the piles' cards (as placed), then the stock
        game._deck = [c for pile in game._piles.values() for c in pile]
        game._deck += [as_card(c, where, "each card of stock") for c in as_sequence(stock, where, "stock")]
        game._check_cards(game._deck, "the position")  # so no more cards than the deck's
        game._placed = sum(game._h)
        game._end_of_turn()
        return game

    def _check_cards(self, cards: list[Card], what: str) -> None:
        """Raise ParseError for a card outside the rule set's deck, PositionError for a card given twice (RULES.md §1):
        cards that pass are no more than the deck's."""
        seen: set[Card] = set()
        for c in cards:
            if c >> 2 > self.rules.ranks or c & 3 >= self.rules.suits:
                raise ParseError(f"{c} is not a card of the {self.rules.label} deck")
            if c in seen:
                raise PositionError(f"{what} holds {c} twice")
            seen.add(c)

    def copy(self) -> Game:
        """An independent copy with the same position and history."""
        new = object.__new__(Game)
        # every list of the state copied (the shared tables are tuples, dicts or objects)
        new.__dict__.update({k: list(v) if type(v) is list else v for k, v in self.__dict__.items()})
        new._piles = {c: list(p) for c, p in self._piles.items()}
        new._rows = [list(r) for r in self._rows]
        new._cols = [list(c) for c in self._cols]
        return new

    # -------------------------------------------------------------- the state

    @property
    def status(self) -> Status:
        """``playing``, ``won`` or ``lost`` (RULES.md §5)."""
        return self._status

    @property
    def reason(self) -> Reason | None:
        """Why the game was lost (``too-many-face-down``, ``stock-empty``, ``no-placement``: RULES.md §5), else ``None``."""
        return self._reason

    @property
    def score(self) -> int | None:
        """Cards left in the stock when the game was won (0 to 24 in the standard game, RULES.md §5), else ``None``."""
        return self._score

    @property
    def is_over(self) -> bool:
        """Whether the game is won or lost."""
        return self._status is not _PLAYING

    @property
    def face_down(self) -> int:
        """The number of face-down top cards (D of RULES.md §5)."""
        return self._down

    @property
    def placed(self) -> int:
        """The number of cards on the grid."""
        return self._placed

    @property
    def stock_count(self) -> int:
        """Cards not yet placed, the next card included (RULES.md §6)."""
        return self._total - self._placed

    @property
    def next_card(self) -> Card | None:
        """The card to place now; ``None`` when the game is over or the card is unknown."""
        if self._status is not _PLAYING or self._placed >= len(self._deck):
            return None
        return self._deck[self._placed]

    @property
    def deck(self) -> tuple[Card, ...]:
        """The known card order, top first: the cards drawn, then the known stock."""
        return tuple(self._deck)

    @property
    def remaining(self) -> tuple[Card, ...]:
        """The known stock after the next card (the hidden part of the order).

        When the game is over there is no next card, and this is the whole known stock.
        """
        return tuple(self._deck[self._placed + (self._status is _PLAYING) :])

    @property
    def moves(self) -> tuple[Placement, ...]:
        """The placements made so far, oldest first."""
        return tuple(self._moves)

    def pile(self, cell: Cell | str) -> Pile | None:
        """The pile at a cell like ``d4``, or ``None`` when the cell is empty.

        :raises ParseError: for a ``cell`` that is not a cell (as :meth:`play`).
        """
        c = as_cell(cell, "Game.pile")
        pile = self._piles.get(c)
        return None if pile is None else Pile(tuple(pile), self._up[c])

    @property
    def grid(self) -> Grid:
        """Every pile by cell, in reading order (row by row, left to right); a cell may
        also be named by its text (:class:`Grid`)."""
        piles = self._piles
        return Grid((c, Pile(tuple(piles[c]), self._up[c])) for c in sorted(piles))

    def bounding_box(self) -> tuple[int, int, int, int] | None:
        """(top row, bottom row, left column, right column) of the piles, from 0; ``None`` when empty."""
        return None if not self._npiles else self._box

    @property
    def unseen(self) -> list[Card]:
        """The cards of the deck not yet seen (not on the grid, not the next card), in deck order.

        Which cards these are is known to the player; their order is not (RULES.md §6).
        """
        seen = set(self._deck[: self._placed + (self.next_card is not None)])  # the grid's cards, then the next one
        return [c for c in ordered_deck(self.rules) if c not in seen]

    # ------------------------------------------------------------ file formats

    def transcript(self, *, claims: bool = True) -> str:
        """This game as a transcript (FORMATS.md "Transcripts"): YAML that
        :meth:`from_transcript` reads back.  ``claims=False`` writes each move as
        ``"CARD CELL"`` only.

        :raises ArgumentError: for a game resumed from a position without its moves
            (a transcript records every move).
        """
        from ..formats.transcript import transcript_text

        return transcript_text(self, claims=claims)

    @classmethod
    def from_transcript(cls, text: str, source: str = "transcript") -> Game:
        """The game of a one-game transcript, replayed to its end, every claim checked.

        :param text: the file's text (a ``str``).
        :param source: the name that errors give the text (a file name, say).
        :raises FormatError: ``SOURCE:LINE: message`` at the first problem.
        :raises ArgumentError: for a ``text`` or ``source`` that is not a ``str``.
        """
        from ..formats.transcript import load_game

        check("Game.from_transcript", text=text, source=source)
        return load_game(text, source)

    def state(self, *, player_view: bool = False, reveal: bool = False) -> str:
        """This game's position as a state (FORMATS.md "State"): YAML that
        :meth:`from_state` reads back; ``player_view=True`` writes only what the
        player may know (face-down top cards too with ``reveal=True``).

        :raises ArgumentError: for ``reveal=True`` without ``player_view=True`` (the full
            state holds every card already: nothing to reveal).
        """
        from ..formats.state import state_text

        if reveal and not player_view:  # (as state --reveal needs --player-view)
            raise wrong_argument("Game.state", "reveal", "False unless player_view=True (the full state shows every card)", reveal)
        return state_text(self, player_view=player_view, reveal=reveal)

    @classmethod
    def from_state(cls, text: str, source: str = "state") -> Game:
        """The game of a state, every key checked (a player's view is refused: see
        :meth:`PlayerView.from_state`).

        :param text: the file's text (a ``str``).
        :param source: the name that errors give the text (a file name, say).
        :raises FormatError: ``SOURCE:LINE: message`` at the first problem.
        :raises ArgumentError: for a ``text`` or ``source`` that is not a ``str``.
        """
        from ..formats.state import read_state

        check("Game.from_state", text=text, source=source)
        return read_state(text, source)

    def view(self) -> PlayerView:
        """What the player may know now (RULES.md §6): :meth:`PlayerView.of` this game.

        :raises PositionError: when the next card is not known (a deck prefix ran out).
        """
        return PlayerView.of(self)

    # ------------------------------------------------------------ placements

    def why_illegal(self, cell: Cell | str) -> str | None:
        """Why placing the next card at ``cell`` is illegal, or ``None`` when it is legal (RULES.md §3).

        :param cell: a cell like ``d4``.
        :returns: a one-line reason in plain words that does not name the cell (the
            caller names it: ``h1: outside the frame (a1-g7)``): the game is over;
            outside the frame; the pile there is full; not next to a pile; outside
            the 4x4 box.  ``None`` when the move is legal.
        :raises ParseError: for a ``cell`` that is not a cell (as :meth:`play`).
        """
        c = as_cell(cell, "Game.why_illegal")
        if self._status is not _PLAYING:
            return f"the game is over ({self._outcome_text()})"
        if not self._geo.inside[c]:
            return f"outside the frame ({self._geo.corner})"
        # RULES.md §3: the first card may go to any cell of the frame; later cards on a pile
        # with fewer than pile_cap cards, or to an empty cell next to a pile (``_open``),
        # inside the window the box allows (the piles still fit in size rows and columns)
        if self._open[c] and c in self._window.members:
            return None
        if self._h[c]:
            return f"the pile there is full ({self._cap} cards)"
        if not self._nb[c]:
            if self.rules.adjacency is Adjacency.EDGE:
                return "not next to a pile (above, below or beside it)"
            return "not next to a pile (above, below, beside or diagonally)"
        r0, r1, c0, c1 = self._box
        r, col = c.row, c.column
        rows = max(r1, r) - min(r0, r) + 1
        cols = max(c1, col) - min(c0, col) + 1
        n = self.rules.size
        span = f"{rows} rows" if rows > n else f"{cols} columns"
        return f"outside the {n}x{n} box (the grid would span {span})"

    def is_legal(self, cell: Cell | str) -> bool:
        """Whether the next card may go to ``cell`` (RULES.md §3).

        :raises ParseError: for a ``cell`` that is not a cell (as :meth:`play`).
        """
        return self.why_illegal(as_cell(cell, "Game.is_legal")) is None

    def legal_cells(self) -> list[Cell]:
        """The cells where the next card may go, in reading order (RULES.md §3); empty exactly when
        the game is over (no cell left ends it: §5 point 4).

        """
        if self._status is not _PLAYING:
            return []
        is_open = self._open
        return [CELLS[i] for i in self._window.indices if is_open[i]]

    def play(self, cell: Cell | str, card: Card | str | None = None) -> Placement:
        """Place the next card at ``cell``, flip (RULES.md §4) and end the turn (§5).

        :param cell: a :class:`Cell` or a cell's name like ``d4``.
        :param card: the card the caller expects to be drawn (a :class:`Card` or text
            like ``7H``); required when the deck does not say which card comes next.
        :returns: the record of the placement (also kept in :attr:`moves`).
        :raises IllegalMoveError: when the cell is illegal (the message says why, the
            fact ``cell`` which: ``error.facts["cell"]``),
            the game is over, or the card is not the one drawn (an :class:`IllegalMoveError` with the fact ``drawn``).
        :raises ParseError: for a cell or card that is not one, text or another type (a
            plain ``int`` too: ``Cell(n)`` and ``Card(n)`` say which number is meant).
        """
        c = cell if type(cell) is Cell else as_cell(cell, "Game.play")
        # The test of why_illegal, written out: this runs once per placement.
        if self._status is not _PLAYING or not (self._open[c] and c in self._window.members):
            raise IllegalMoveError(self.why_illegal(c) or "", cell=c)
        placed = self._placed
        deck_len = len(self._deck)
        # the card drawn, named or not, read as _draw would return it
        x = (
            self._deck[placed]
            if placed < deck_len and (card is None or (type(card) is Card and card == self._deck[placed]))
            else self._draw(None if card is None else as_card(card, "Game.play"))
        )

        # Put the card on the cell.
        h = self._h
        up = self._up
        undo = (up[c], self._box, self._window, self._down, deck_len)
        if h[c]:
            if not up[c]:
                self._down -= 1
            self._piles[c].append(x)
        else:
            self._add_pile(c)
            self._piles[c] = [x]
        h[c] += 1
        self._open[c] = h[c] < self._cap
        rank = self._rank[c] = x >> 2
        up[c] = True
        self._placed = placed = placed + 1
        # §4: the row, then the column (a line holding only c is unaffected).
        row = self._rows[c >> 4]
        col = self._cols[c & 15]
        flipped = self._flip_line(c, rank, row) if len(row) > 1 else []
        if len(col) > 1:
            flipped += self._flip_line(c, rank, col)
        if len(flipped) > 1:
            if self._self_flip and flipped.count(c) == 2:  # flipped with both lines: face up again
                flipped = [f for f in flipped if f != c]
            flipped.sort(key=CELL_NAMES.__getitem__)  # cells as their names sort as text (RULES.md §9)
        # §5: only a full grid, too many face down or an empty stock can end the game
        # (no legal cell, point 4, needs a full grid too).
        down = self._down
        if self._npiles == self._n_cells or down > self._limit or placed >= self._total:
            self._end_of_turn()
        record = _new_placement(
            Placement, (x, c, tuple(flipped) if flipped else (), down, self._status, self._reason, self._score)
        )
        self._moves.append(record)
        self._undo.append(undo)
        return record

    def _draw(self, card: Card | None) -> Card:
        i = self._placed
        if card is not None and (card >> 2 > self.rules.ranks or card & 3 >= self.rules.suits):
            raise IllegalMoveError(f"{card} is not a card of the {self.rules.label} deck")
        if i < len(self._deck):
            drawn = self._deck[i]
            if card is not None and card != drawn:
                raise IllegalMoveError(f"the card drawn is {drawn}, not {card}", drawn=drawn)
            return drawn
        if card is None:
            raise IllegalMoveError("the next card is unknown: the move must name it (like 7H d4)")
        if card in self._deck:
            raise IllegalMoveError(f"{card} has been drawn already")
        self._deck.append(card)
        return card

    def _add_pile(self, c: Cell) -> None:
        """Record a new pile at ``c`` in the tables: box, window, lines, neighbours.

        The caller puts the pile's cards in ``_piles`` and sets its height and its
        own ``_open`` entry.
        """
        if not self._npiles:  # the first card: from now on only cells next to piles are open
            self._open = [False] * _SIZE
        self._npiles += 1
        r, col = c >> 4, c & 15
        r0, r1, c0, c1 = self._box
        if not (r0 <= r <= r1 and c0 <= col <= c1):
            self._box = (r if r < r0 else r0, r if r > r1 else r1, col if col < c0 else c0, col if col > c1 else c1)
            self._window = window(self._geo.frame, self.rules.size, self._box)
        self._rows[r].append(c)
        self._cols[col].append(c)
        for n in self._geo.neighbours[c]:
            self._nb[n] += 1
            if not self._h[n]:
                self._open[n] = True

    def _flip_line(self, c: Cell, rank: int, line: list[Cell]) -> list[Cell]:
        """RULES.md §4 for one line (a row or a column) through the placed card.

        ``line`` holds the line's piles, the placed card's cell ``c`` among them.
        U is the ranks of the other piles' face-up top cards (every top card when
        the rules compare with all).  When U is empty, or the placed rank is above
        max(U) or below min(U), every other top card of the line flips; a tie with
        a rank of U, or a rank in between, flips nothing (under ``ties: count`` a
        tie flips).  A line with no other pile is unaffected.  Under ``self_flip``
        the placed card flips with its line.

        :returns: the cells flipped (a new list).
        """
        up = self._up
        ranks = self._rank
        sees_all = self._sees_all
        lo, hi = 99, 0  # min(U) and max(U); hi stays 0 while U is empty (ranks start at 1)
        for o in line:
            if o != c and (up[o] or sees_all):
                k = ranks[o]
                if k < lo:
                    lo = k
                if k > hi:
                    hi = k
        if hi and ((lo < rank < hi) if self._ties_count else (lo <= rank <= hi)):
            return []  # a tie or a rank in between: nothing flips
        others = line.copy()
        others.remove(c)
        if self._self_flip and others:
            others.append(c)
        down = self._down
        for o in others:
            down += 1 if up[o] else -1
            up[o] = not up[o]
        self._down = down
        return others

    def _end_of_turn(self) -> None:
        """RULES.md §5, the end of the turn: won when the grid is full (every cell
        of the ``size``×``size`` grid holds a pile) and no top card is face down
        (the score: the cards left in the stock); else lost when more than
        ``face_down_limit`` top cards are face down (``too-many-face-down``), then
        when the stock is empty (``stock-empty``); else the game goes on.

        :meth:`play` calls it only when one of these can hold (it tests the same
        three conditions first); :meth:`from_position` and :meth:`undo` always.
        Last, lost when the next card has no legal cell (``no-placement``, §5
        point 4): the grid holds ``room`` cards, every pile full, so the grid is
        full and :meth:`play` calls this at every later turn.  Only rule sets that
        :attr:`~foursquare.engine.rules.Rules.can_run_out_of_room` test it.
        """
        if self._npiles == self._n_cells and self._down == 0:
            self._status, self._reason, self._score = Status.WON, None, self._total - self._placed
        elif self._down > self._limit:
            self._status, self._reason, self._score = Status.LOST, Reason.TOO_MANY_FACE_DOWN, None
        elif self._placed >= self._total:
            self._status, self._reason, self._score = Status.LOST, Reason.STOCK_EMPTY, None
        elif self._placed == self._room:
            self._status, self._reason, self._score = Status.LOST, Reason.NO_PLACEMENT, None
        else:
            self._status, self._reason, self._score = _PLAYING, None, None

    def undo(self) -> Placement:
        """Take back the last placement, restoring the previous state exactly.

        :returns: the placement taken back.
        :raises IllegalMoveError: when there is no placement to take back.
        """
        if not self._moves:
            raise IllegalMoveError("nothing to undo")
        record = self._moves.pop()
        # the face before it, and the box, window and face-down count restored at once
        was_up, self._box, self._window, self._down, deck_len = self._undo.pop()
        c = record.cell
        up = self._up
        for f in record.flipped:
            up[f] = not up[f]
        pile = self._piles[c]
        pile.pop()
        self._h[c] -= 1
        if pile:
            self._rank[c] = pile[-1] >> 2
            up[c] = was_up
            self._open[c] = True
        else:  # the newest pile, now empty: _add_pile undone (box and window restored above)
            self._rank[c] = 0
            up[c] = False
            self._npiles -= 1
            del self._piles[c]
            self._rows[c >> 4].pop()  # piles are removed newest first, so ``c`` is the last of its lines
            self._cols[c & 15].pop()
            nb = self._nb
            for n in self._geo.neighbours[c]:
                nb[n] -= 1
                if not nb[n] and not self._h[n]:
                    self._open[n] = False
            self._open[c] = nb[c] > 0
            if not self._npiles:
                self._open = list(self._geo.inside)
        del self._deck[deck_len:]  # the cards named by moves past a deck prefix
        self._placed -= 1
        self._end_of_turn()
        return record

    def _outcome_text(self) -> str:
        return outcome_words(
            self._status, self._reason, score=self._score, face_down=self._down, limit=self.rules.face_down_limit, rules=self.rules
        )

    def __repr__(self) -> str:
        origin = f"deal {self.deal}" if self.deal is not None else "a card order"
        return f"<Game {self.rules.label} rules, {origin}, {self._placed} placed, {self._outcome_text()}>"


@dataclass(frozen=True)
class PlayerView:
    """What the player knows at one moment (RULES.md §6).

    The layout (face-down top cards included, since the player saw them placed),
    the card to place, the number of cards in the stock and *which* cards are
    unseen — never their order.  Bots and hints take a view, so that their answer
    cannot depend on the hidden order.

    :ivar rules: the rule set.
    :ivar grid: cell (like ``d4``) -> :class:`Pile`, in reading order (a :class:`Grid`).
    :ivar next_card: the card to place, or ``None`` when the game is over.
    :ivar stock_count: cards not yet placed, the next card included.
    :ivar unseen: the cards not yet seen, sorted (a multiset; order unknown).
    :ivar face_down: the number of face-down top cards.
    :ivar status: the status of the game (RULES.md §5).
    """

    rules: Rules
    grid: Grid
    next_card: Card | None
    stock_count: int
    unseen: tuple[Card, ...]
    face_down: int
    status: Status

    def __post_init__(self) -> None:
        if not isinstance(self.grid, Grid):
            object.__setattr__(self, "grid", Grid(self.grid))

    @classmethod
    def of(cls, game: Game) -> PlayerView:
        """The view of ``game``'s player (RULES.md §6).

        :param game: a game, running or over.
        :returns: its view; of a game over, with no next card.
        :raises PositionError: when the game goes on but its next card is not known
            (a deck prefix ran out).
        :raises ArgumentError: when ``game`` is not a :class:`Game`.
        """
        if not isinstance(game, Game):
            raise wrong_argument("PlayerView.of", "game", "a Game", game)
        if game.status is Status.PLAYING and game.next_card is None:
            raise PositionError("the next card is unknown, so there is no player's view to take")
        return cls(
            game.rules,
            game.grid,
            game.next_card,
            game.stock_count,
            tuple(sorted(game.unseen)),
            game.face_down,
            game.status,
        )

    @classmethod
    def from_state(cls, text: str, source: str = "state") -> PlayerView:
        """The view of a state: a full state's, or a player's view written with its
        face-down cards revealed (``Game.state(player_view=True, reveal=True)``).

        :param text: the file's text (a ``str``).
        :param source: the name that errors give the text (a file name, say).
        :raises FormatError: ``SOURCE:LINE: message`` at the first problem.
        :raises ArgumentError: for a ``text`` or ``source`` that is not a ``str``.
        """
        from ..formats.state import read_view

        check("PlayerView.from_state", text=text, source=source)
        return read_view(text, source)

    def legal_cells(self) -> list[Cell]:
        """The cells where the next card may go, in reading order (RULES.md §3; :meth:`Game.legal_cells`):
        empty exactly when :attr:`status` is not ``playing`` (a full grid with no
        room left is lost, §5 point 4)."""
        return self.sample(random.Random(0)).legal_cells()

    def sample(self, rng: random.Random) -> Game:
        """A game in this position with the unseen cards in a random order (a determinization).

        :param rng: the random source that orders the unseen cards.
        :returns: a new :class:`Game` (from :meth:`Game.from_position`, no history)
            whose stock is the next card then a shuffle of :attr:`unseen`.
        :raises ArgumentError: when ``rng`` is not a :class:`random.Random`.
        """
        if not isinstance(rng, random.Random):
            raise wrong_argument("PlayerView.sample", "rng", "a random.Random", rng)
        rest = list(self.unseen)
        rng.shuffle(rest)
        # a Pile is the pair (cards, face up?)
        return Game.from_position(self.grid, ([self.next_card] if self.next_card is not None else []) + rest, self.rules)


def perft(game: Game, depth: int) -> int:
    """The number of legal move sequences of length ``depth`` from ``game`` (RULES.md §9,
    like chess "perft"): a sequence whose game ends before its last move is not counted.

    :param game: the position; it is left as it was (play and undo).
    :param depth: the sequence length, in placements (0 counts the empty sequence).
    :returns: the count (deal 1 from the start: 49, 217, 1409, 11705, 115760 for 1..5).
    :raises ArgumentError: when ``depth`` is not a whole number.
    """
    if not isinstance(game, Game):
        raise wrong_argument("perft", "game", "a Game", game)
    check("perft", depth=depth)
    if depth == 0:
        return 1
    cells = game.legal_cells()
    if depth == 1:
        return len(cells)
    total = 0
    for cell in cells:
        game.play(cell)
        total += perft(game, depth - 1)
        game.undo()
    return total
