"""State: a full snapshot of a game in YAML, from which it resumes exactly (FORMATS.md "State").

::

    foursquare: 1
    rules: standard
    deal: 1
    placed: 3
    stock: 37
    next: "7H"
    status: playing
    reason: null
    score: null
    face_down: 1
    grid:
      "c4": {cards: ["7D"], face: up}
      "d4": {cards: ["2D"], face: down}
      "e4": {cards: ["3C"], face: up}
    remaining: ["9H", "9D", ...]
    moves: ["2D d4", "3C e4", "7D c4"]

Keys beyond FORMATS.md: ``moves`` (the history as ``"CARD CELL"`` strings, when
the game has all of it) so that a resumed game keeps its history; ``unknown``
(written only when the order of the stock is known only in part: the number of
cards beyond ``remaining``); ``view: player`` (a player's view, which omits
``remaining``, ``deal`` and ``moves`` and writes each face-down top card as
``null``: it cannot be resumed).

Loading a dump and dumping it again gives the same text.

:func:`read_view` reads what a player may know (RULES.md §6) from a full state
or from a player's view.  A player's view that hides a face-down top card
(``null``, as ``--player-view`` writes it) cannot give an exact view: the
player saw that card when it was placed, its rank matters once it is flipped
up, and which cards are unseen depends on it; so :func:`read_view` accepts a
player's view only when every card on the grid is written (no face-down top
card, or its identity filled in), and otherwise says so.
"""

from __future__ import annotations

from typing import Any

from ..engine.cards import Card
from ..engine.deal import deal_deck, ordered_deck
from ..engine.frame import frame_of
from ..engine.game import Game, Status
from ..engine.layout import Cell
from ..engine.rules import STANDARD, Rules
from ..engine.view import PlayerView
from ..errors import Advice, FormatError, ParseError, PositionError
from .movescript import Move, new_game, parse_move, play_move
from .schema import FORMAT_VERSION, MISSING_VERSION, NOT_IN_VIEW, PILE, STATE, VIEW, rules_value
from .yaml import (
    Flow,
    FlowList,
    Quoted,
    YMap,
    YNode,
    YScalar,
    YSeq,
    as_card,
    as_collection,
    as_text,
    dump,
    one_document,
)
from .yaml.values import read_entries

#: A grid as read: cell -> (cards bottom to top, top face up?).
_Grid = dict[Cell, tuple[list[Card], bool]]
_NOT_RESUMABLE = (
    "a player's view cannot be replayed or resumed: the hidden order of the stock (remaining) is"
    " missing (foursquare hint reads a player's view)"
)

#: What a player's view and a state must have: key -> what is said at the document's line without it.
_VIEW_NEEDS = {
    "foursquare": MISSING_VERSION,
    "grid": "missing grid (cell -> {cards, face})",
    "next": "missing next (the card to place now, or null)",
}
_STATE_NEEDS = {**_VIEW_NEEDS, "remaining": f"missing remaining: {_NOT_RESUMABLE}"}

# ------------------------------------------------------------------ writing


def state_text(game: Game, *, player_view: bool = False, reveal: bool = False) -> str:
    """The state of ``game`` as YAML (FORMATS.md "State"; the module doc shows the keys).

    :param game: the game.
    :param player_view: write only what the player may know (RULES.md §6): no
        ``remaining``, ``deal`` or ``moves``, face-down top cards as ``null``.
    :param reveal: in a player's view, write the face-down top cards too: the player
        saw each when it was placed (RULES.md §6, a memory aid), and the view is then
        exact (a hint can read it).
    :returns: one YAML document; every card and cell is a quoted string.
    """
    placed = game.placed
    known = list(game.deck[placed:])  # the known part of the stock, next card first
    nxt = game.next_card
    doc: dict[str, Any] = {"foursquare": FORMAT_VERSION}
    if player_view:
        doc["view"] = "player"
    doc["rules"] = rules_value(game.rules)
    if game.deal is not None and not player_view:
        doc["deal"] = game.deal
    doc.update(
        placed=placed,
        stock=game.stock_count,
        next=None if nxt is None else Quoted(str(nxt)),
        status=game.status.value,
        reason=None if game.reason is None else game.reason.value,
        score=game.score,
        face_down=game.face_down,
    )
    grid: dict[Quoted, Flow] = {}
    for cell, pile in game.grid.items():
        cards: list[Quoted | None] = [Quoted(str(c)) for c in pile.cards]
        if player_view and not pile.face_up and not reveal:
            cards[-1] = None
        grid[Quoted(str(cell))] = Flow(cards=FlowList(cards), face="up" if pile.face_up else "down")
    doc["grid"] = grid
    if not player_view:
        doc["remaining"] = FlowList(Quoted(str(c)) for c in (known[1:] if nxt is not None else known))
        unknown = game.stock_count - len(known)
        if unknown:
            doc["unknown"] = unknown
        if len(game.moves) == placed:
            doc["moves"] = FlowList(Quoted(f"{p.card} {p.cell}") for p in game.moves)
    return dump(doc)


# ------------------------------------------------------------------ reading


def read_state(text: str, source: str) -> Game:
    """Resume the game of a state (as :func:`state_text` writes it, or by hand).

    With ``moves`` the game is replayed from its deal (or from the cards the
    moves, ``next`` and ``remaining`` name) and must reach the grid written;
    without, it is set up from the position (:meth:`Game.from_position`).
    Every key is checked: unknown keys, types, cards, cells, duplicate cards,
    and that ``placed``, ``stock``, ``face_down``, ``status``, ``reason``,
    ``score`` and ``next`` agree with the position.

    :param text: the state's text.
    :param source: the file name used in errors.
    :returns: the game, such that ``state_text(read_state(t))`` is ``t`` for a dump ``t``.
    :raises FormatError: ``FILE:LINE: message`` at the first problem; a player's
        view says it cannot be resumed.
    """
    return _StateReader(source).read(_state_document(text, source))


def read_view(text: str, source: str) -> PlayerView:
    """What the player may know (RULES.md §6) in the position of a state: a
    :class:`~foursquare.engine.view.PlayerView`, for a hint or a bot.

    A full state is read as :func:`read_state` reads it (every check made) and
    gives its game's view.  A player's view (``view: player``) is checked the same
    way: its keys (no ``deal``, ``remaining``, ``unknown`` or ``moves``), types,
    cards, cells, duplicate cards, and that ``placed``, ``stock``, ``face_down``,
    ``status``, ``reason``, ``score`` and ``next`` agree with the position; the
    unseen cards are the deck's cards not on the grid and not ``next``.

    :param text: the state's text.
    :param source: the file name used in errors.
    :returns: the view.
    :raises FormatError: ``FILE:LINE: message`` at the first problem; for a
        player's view with a hidden (``null``) face-down top card, at that card: it
        cannot give an exact view (module doc); for a state whose next card is
        unknown (a stock known only in part) while the game goes on.
    """
    doc = _state_document(text, source)
    game = _StateReader(source, "view" in doc.entries).read(doc)
    if "view" not in doc.entries and game.status is Status.PLAYING and game.next_card is None:
        raise FormatError(
            source, doc.line_of("next"), "the next card is unknown (the stock is known only in part): no player's view"
        )
    return PlayerView.of(game)


def _state_document(text: str, source: str) -> YMap:
    return as_collection(
        one_document(text, source, "the state is empty", "a state is one YAML document; this file holds more"), YMap, "a state", source
    )


class _StateReader:
    def __init__(self, source: str, view: bool = False) -> None:
        self.source = source
        self.seen: dict[Card, int] = {}
        self.rules: Rules = STANDARD
        self.view = view  # reading a player's view (view: player)

    def card(self, node: YNode, what: str) -> Card:
        if isinstance(node, YScalar) and node.is_null:
            if self.view:
                raise FormatError(self.source, node.line, f"{what} is null: only a face-down top card may be hidden")
            raise FormatError(self.source, node.line, f"{what} is hidden (null): {_NOT_RESUMABLE}")
        card = as_card(node, what, self.source)
        if card.rank > self.rules.ranks or card.suit >= self.rules.suits:
            raise FormatError(self.source, node.line, f"{what}: {card} is not a card of the {self.rules.label} deck")
        if card in self.seen:
            raise FormatError(self.source, node.line, f"{what}: {card} appears twice (first on line {self.seen[card]})")
        self.seen[card] = node.line
        return card

    def read(self, doc: YMap) -> Game:
        """The game of a full state; reading a view, of a player's view (``view: player``):
        the position it shows, the cards it does not show in the stock in deck order."""
        for key in NOT_IN_VIEW if self.view else ():
            if key in doc.entries:
                raise FormatError(
                    self.source, doc.key_lines[key], f"a player's view (view: player) has no {key}: the player does not know it"
                )
        shape, what = (VIEW, "a player's view") if self.view else (STATE, "a state")
        values, _, errors = read_entries(doc, shape, what, self.source, missing=_VIEW_NEEDS if self.view else _STATE_NEEDS)
        if "view" in values and not self.view:  # said first: what the other faults of a view read as a state come from
            raise FormatError(self.source, doc.entries["view"].line, _NOT_RESUMABLE)
        if errors:
            raise errors[0]
        rules = self.rules = values.get("rules", STANDARD)
        grid = self.read_grid(as_collection(doc.entries["grid"], YMap, "grid", self.source))
        nxt_node = doc.entries["next"]
        nxt = None if isinstance(nxt_node, YScalar) and nxt_node.is_null else self.card(nxt_node, "next")
        if self.view:
            shown = {c for cards, _ in grid.values() for c in cards}
            known = ([nxt] if nxt is not None else []) + [c for c in ordered_deck(rules) if c not in shown and c != nxt]
            game = self.position(doc, grid, known, None)
        else:
            items = as_collection(doc.entries["remaining"], YSeq, "remaining", self.source).items
            known = ([nxt] if nxt is not None else []) + [self.card(item, f"remaining card {i}") for i, item in enumerate(items, 1)]
            unknown = values.get("unknown", 0)
            on_grid = sum(len(cards) for cards, _ in grid.values())
            stock = rules.deck_size - on_grid
            if len(known) + unknown != stock:
                raise FormatError(
                    self.source,
                    doc.line_of("remaining"),
                    f"the stock holds {stock} cards ({rules.deck_size} in the deck, {on_grid} on the grid), "
                    f"but next and remaining list {len(known)}" + (f" and unknown counts {unknown}" if unknown else ""),
                )
            game = (self.replay if "moves" in doc.entries else self.position)(doc, grid, known, values.get("deal"))
        # next (null where the game goes on and cards are known?) and each count and claim written, against the position
        if not game.is_over and nxt is None and (self.view or known):
            lists = "" if self.view else " and remaining lists cards"
            raise FormatError(self.source, nxt_node.line, f"next is null but the game goes on{lists} (next is the card to place now)")
        if game.is_over and nxt is not None:
            raise FormatError(self.source, nxt_node.line, f"next must be null: the game is {game.status}")
        actual = {  # what each count and claim, when written, must be, and where that comes from
            "placed": (game.placed, "the grid gives"),
            "stock": (game.stock_count, "the grid gives"),
            "face_down": (game.face_down, "the grid gives"),
            "status": (game.status, "the position is"),
            "reason": (game.reason, "the position gives"),
            "score": (game.score, "the position gives"),
        }
        for key, (value, whence) in actual.items():
            if key in values and values[key] != value:
                raise FormatError(
                    self.source,
                    doc.entries[key].line,
                    f"{key}: {'null' if values[key] is None else values[key]}, but {whence} {'null' if value is None else value}",
                )
        return game

    def read_grid(self, node: YMap) -> dict[Cell, tuple[list[Card], bool]]:
        self.cell_lines: dict[Cell, int] = {}
        geo = frame_of(self.rules)
        grid: dict[Cell, tuple[list[Card], bool]] = {}
        for key, value in node.entries.items():
            line = node.key_lines[key]
            try:
                cell = Cell.parse(key)
            except ParseError as exc:
                raise FormatError(self.source, line, f"grid: {exc}") from None
            if not geo.inside[cell]:
                raise FormatError(self.source, line, f"grid: {cell} is outside the frame ({geo.corner})")
            if cell in grid:
                raise FormatError(self.source, line, f"grid: {cell} is listed twice")
            pile = as_collection(value, YMap, f"grid {cell}", self.source)
            needs = dict.fromkeys(PILE, f"pile {cell} needs cards and face")
            values, _, errors = read_entries(pile, PILE, f"pile {cell}", self.source, f"pile {cell}: ", needs)
            if errors:
                raise errors[0]
            items = as_collection(pile.entries["cards"], YSeq, f"pile {cell}: cards", self.source).items
            if not 1 <= len(items) <= self.rules.pile_cap:
                raise FormatError(
                    self.source, pile.line_of("cards"), f"pile {cell} has {len(items)} cards (1 to {self.rules.pile_cap} allowed)"
                )
            face, top = values["face"], items[-1]
            if self.view and face == "down" and isinstance(top, YScalar) and top.is_null:
                raise FormatError(
                    self.source,
                    top.line,
                    f"pile {cell}: the face-down top card is hidden (null), so the view is not exact (its rank matters once it is"
                    " flipped up, and which cards are unseen depends on it)",
                    advice=Advice.REVEAL,
                )
            grid[cell] = ([self.card(item, f"pile {cell}") for item in items], face == "up")
            self.cell_lines[cell] = line
        return grid

    def position(self, doc: YMap, grid: _Grid, known: list[Card], deal: int | None) -> Game:
        try:
            game = Game.from_position(grid, known, self.rules, deal)
        except (ParseError, PositionError) as exc:
            raise FormatError(self.source, doc.key_lines["grid"], f"grid: {exc}") from None
        if deal is not None:
            order = deal_deck(deal, self.rules)
            if set(order[: game.placed]) != {c for cards, _ in grid.values() for c in cards}:
                raise FormatError(self.source, doc.key_lines["grid"], f"grid: these are not the first {game.placed} cards of deal {deal}")
            if known != order[game.placed : game.placed + len(known)]:
                raise FormatError(
                    self.source, doc.line_of("remaining"), f"next and remaining are not the rest of deal {deal} in order"
                )
        return game

    def replay(self, doc: YMap, grid: _Grid, known: list[Card], deal: int | None) -> Game:
        moves: list[tuple[int, Move]] = []
        for item in as_collection(doc.entries["moves"], YSeq, "moves", self.source).items:
            try:  # (as_text's error is a FormatError already)
                moves.append((item.line, parse_move(as_text(item, "a move", self.source))))
            except ParseError as exc:
                raise FormatError(self.source, item.line, f"moves: {exc}") from None
        for line, move in moves if deal is None else ():
            if move.card is None:
                raise FormatError(self.source, line, f"moves: {move} must name its card (the state names no deal)")
        try:  # (the deal's order, else the cards the moves name and the known stock)
            cards = [move.card for _, move in moves if move.card is not None]
            game = new_game(deal=deal, deck=cards + known, rules=self.rules)
        except (ParseError, PositionError) as exc:
            raise FormatError(self.source, doc.line_of("moves"), f"moves: {exc}") from None
        for number, (line, move) in enumerate(moves, 1):
            play_move(game, move, self.source, line, number)
        actual = {cell: (list(p.cards), p.face_up) for cell, p in game.grid.items()}
        if actual != grid:
            cell = next(c for c in sorted(set(actual) | set(grid)) if actual.get(c) != grid.get(c))
            pile = actual.get(cell)
            shown = "no pile" if pile is None else f"{' '.join(map(str, pile[0]))}, face {'up' if pile[1] else 'down'}"
            raise FormatError(
                self.source, self.cell_lines.get(cell, doc.key_lines["grid"]), f"grid: {cell} is not what the moves give ({shown})"
            )
        rest = list(game.deck[game.placed :])
        if known != rest[: len(known)] or (deal is not None and len(known) != len(rest)):
            raise FormatError(
                self.source, doc.line_of("remaining"), "next and remaining are not the rest of the deck the moves were drawn from"
            )
        return game
