"""A picture of a game as SVG: the layout on a card table, to open in a browser or share.

:func:`svg_text` draws what a player sees (RULES.md §6) as one self-contained SVG
1.1 document: no external fonts, images or scripts, a ``viewBox`` so that it scales,
a ``<title>`` and a ``<desc>`` in words.  Every text in it is escaped, so the
document is well-formed XML whatever the cards, cells or rule names hold.

What is drawn (the same region as the text grid of the prompt: the piles and the
cells where the next card may go, with column letters and row numbers):

- each pile's top card, face up with its rank and suit (a four-colour deck: clubs
  green, diamonds blue, hearts red, spades black, so that suits tell apart at a
  glance; RULES.md §1: suits never matter to play), or face down as a card back
  (with its identity in small print when revealed, a memory aid, §6);
- the pile's height: the edges of the cards under the top one, and a count badge;
- a gold ring round each cell the last move flipped (§4), a white ring round the
  card it placed;
- a dashed outline where the next card may go on an empty cell (§3);
- beside the grid: the stock (a card back and its count, the next card included),
  the card to place, the face-down count against the limit (§5) and the result.

Every grid size and frame works (RULES.md §8: ``three-square``, ``five-square``,
``fixed-board``, rules files); the picture grows with the region drawn.

Each pile is a group ``<g id="pile-d4" class="pile ...">`` whose ``<title>`` names
the cell, the top card (``7H``; a face-down card only when revealed) and the
height, so that a reader, a screen reader or a test can find every card.
"""

from __future__ import annotations

import math
import textwrap
from xml.sax.saxutils import escape, quoteattr

from ..engine.cards import RANK_CHARS, SUIT_CHARS, Card
from ..engine.game import Game, Pile
from ..engine.layout import CELLS, COLUMN_LETTERS, STRIDE, Cell
from ..engine.outcome import Status, outcome_words

#: A card's size and the pitch of the grid, in SVG user units (px at scale 1).
CARD_W, CARD_H = 60, 84
PITCH_X, PITCH_Y = 72, 98
MARGIN = 18
LABEL = 20  # room for the column letters above the grid and the row numbers left of it
PANEL_W = 150

#: Suit colours by suit number (clubs, diamonds, hearts, spades): a four-colour deck.
SUIT_COLOURS = ("#1d7a3a", "#1f5fbf", "#c62828", "#1b1b1b")
INK_ON_FELT = "#e8f3ea"
FLIP_GOLD = "#ffcc33"
BACK_BLUE, BACK_LINE = "#1e4a9a", "#4f7fd6"

#: The suit shapes, drawn in a 100 x 100 box: paths rather than font glyphs, so that
#: every viewer draws them the same.
_SUIT_PATHS = (
    # clubs: three leaves and a stem
    "M50 4a21 21 0 0 1 17 33.5a21 21 0 1 1 -8 36.5c1 10 5 17 13 22h-44c8-5 12-12 13-22"
    "a21 21 0 1 1 -8-36.5a21 21 0 0 1 17-33.5z",
    # diamonds
    "M50 2L88 50L50 98L12 50z",
    # hearts
    "M50 92C30 74 4 56 4 32C4 16 16 6 29 6C39 6 46 12 50 21C54 12 61 6 71 6C84 6 96 16 96 32C96 56 70 74 50 92z",
    # spades: an upturned heart and a stem
    "M50 4C66 24 96 40 96 62C96 76 86 84 74 84C64 84 57 79 53 72C54 84 58 91 68 96h-36"
    "c10-5 14-12 15-24C43 79 36 84 26 84C14 84 4 76 4 62C4 40 34 24 50 4z",
)

#: The gradients of the felt and the card faces, the lattice of a card back, the suit shapes.
_DEFS = (
    "<defs>\n"
    f'<radialGradient id="felt" cx="50%" cy="42%" r="75%"><stop offset="0" stop-color="#2f8a50"/>'
    f'<stop offset="1" stop-color="#17532e"/></radialGradient>\n'
    '<linearGradient id="face" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffffff"/>'
    '<stop offset="1" stop-color="#f3efe4"/></linearGradient>\n'
    f'<pattern id="lattice" width="8" height="8" patternUnits="userSpaceOnUse"><rect width="8" height="8" fill="{BACK_BLUE}"/>'
    f'<path d="M0 4L4 0L8 4L4 8z" fill="none" stroke="{BACK_LINE}" stroke-width="1"/></pattern>\n'
    + "".join(
        f'<symbol id="suit-{suit}" viewBox="0 0 100 100"><path d="{path}" fill="{colour}"/></symbol>\n'
        for suit, path, colour in zip(SUIT_CHARS, _SUIT_PATHS, SUIT_COLOURS, strict=True)
    )
    + "</defs>\n"
)


def _num(value: float) -> str:
    """A coordinate as short text: ``12``, ``12.5``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _text_width(text: str, size: float) -> float:
    return len(text) * size * 0.62  # roughly: a character of the font is 0.62 of its size wide


#: Attribute names that are no Python names, by the names :func:`_tag` takes for them.
_NAMES = {"cls": "class", "xlink_href": "xlink:href", "xmlns_xlink": "xmlns:xlink"}


def _tag(name: str, text: str | None = None, /, **attrs: float | str) -> str:
    """One element on its line: attribute names with ``-`` for ``_`` (``font_size``; and
    :data:`_NAMES`), numbers written short, every text escaped."""
    shown = "".join(
        f" {_NAMES.get(key, key.replace('_', '-'))}={quoteattr(v if isinstance(v, str) else _num(v))}"
        for key, v in attrs.items()
    )
    return f"<{name}{shown}/>\n" if text is None else f"<{name}{shown}>{escape(text)}</{name}>\n"


def _group(title: str | None, children: str, **attrs: float | str) -> str:
    """A group of elements, with its ``<title>`` first."""
    head = _tag("g", **attrs)[:-3] + ">\n"
    return head + ("" if title is None else _tag("title", title)) + children + "</g>\n"


def _card_face(x: float, y: float, card: Card, scale: float = 1.0) -> str:
    """A face-up card at (x, y): the rank and a small suit in the corner, a large rank
    and suit in the middle (the rank is what the rules compare, so it is the largest)."""
    w, h = CARD_W * scale, CARD_H * scale
    colour, suit = SUIT_COLOURS[card.suit], f"#suit-{SUIT_CHARS[card.suit]}"
    rank = "10" if card.rank == 10 else RANK_CHARS[card.rank]  # as printed on a card face: A, 2 ... 10, J, Q, K
    tight = len(rank) > 1
    return "".join((
        _tag("rect", x=x, y=y, width=w, height=h, rx=6 * scale, fill="url(#face)", stroke="#9c9585", stroke_width=1),
        _tag("text", rank, x=x + 5 * scale, y=y + 16 * scale, font_size=14 * scale, font_weight="bold", fill=colour,
             letter_spacing=-1 if tight else 0, cls="rank"),
        _tag("use", x=x + 5 * scale, y=y + 19 * scale, width=11 * scale, height=11 * scale, xlink_href=suit),
        _tag("text", rank, x=x + w / 2 + 2 * scale, y=y + 53 * scale, font_size=(26 if tight else 30) * scale,
             font_weight="bold", fill=colour, text_anchor="middle", letter_spacing=-2 if tight else 0, cls="rank"),
        _tag("use", x=x + w / 2 - 10 * scale, y=y + 58 * scale, width=20 * scale, height=20 * scale, xlink_href=suit),
    ))  # fmt: skip


def _card_back(x: float, y: float, scale: float = 1.0, shown: Card | None = None) -> str:
    """A card back at (x, y); ``shown``: the card's identity in small print (revealed)."""
    w, h = CARD_W * scale, CARD_H * scale
    back = _tag("rect", x=x, y=y, width=w, height=h, rx=6 * scale, fill="#fbfaf5", stroke="#9c9585", stroke_width=1)
    back += _tag("rect", x=x + 4 * scale, y=y + 4 * scale, width=w - 8 * scale, height=h - 8 * scale, rx=3 * scale,
                 fill="url(#lattice)", stroke=BACK_BLUE, stroke_width=1)  # fmt: skip
    if shown is None:
        return back
    return back + "".join((
        _tag("rect", x=x + 10 * scale, y=y + h / 2 - 11 * scale, width=w - 20 * scale, height=22 * scale,
             rx=4 * scale, fill="#fbfaf5", fill_opacity=0.92),
        _tag("text", str(shown), x=x + w / 2, y=y + h / 2 + 5 * scale, font_size=13 * scale, font_weight="bold",
             fill=SUIT_COLOURS[shown.suit], text_anchor="middle"),
    ))  # fmt: skip


def _under(x: float, y: float, count: int, scale: float = 1.0) -> str:
    """The edges of the cards under a top card (or a stock's), at most three."""
    return "".join(
        _tag("rect", x=x + 2 * i, y=y + (3 if scale == 1 else 2) * i, width=CARD_W * scale, height=CARD_H * scale,
             rx=6 if scale == 1 else 4, fill="#ece6d6", stroke="#8a8373", stroke_width=1)
        for i in range(min(count, 3), 0, -1)
    )  # fmt: skip


def _pile(x: float, y: float, cell: Cell, pile: Pile, reveal: bool, flipped: bool, placed: bool) -> str:
    """A pile: the edges of the cards under its top card, a ring when the last move flipped
    it (gold) or placed it (white), its top card, its height in a badge."""
    classes = ["pile", "face-up" if pile.face_up else "face-down"] + ["flipped"] * flipped + ["placed"] * placed
    if flipped:
        ring = _tag("rect", x=x - 4, y=y - 4, width=CARD_W + 8, height=CARD_H + 8, rx=9, fill="none", stroke=FLIP_GOLD,
                    stroke_width=3.5, cls="flip-mark")  # fmt: skip
    else:
        ring = _tag("rect", x=x - 3.5, y=y - 3.5, width=CARD_W + 7, height=CARD_H + 7, rx=8.5, fill="none",
                    stroke="#ffffff", stroke_width=2, stroke_opacity=0.9, cls="placed-mark") if placed else ""  # fmt: skip
    top = _card_face(x, y, pile.top) if pile.face_up else _card_back(x, y, shown=pile.top if reveal else None)
    bx, by = x + CARD_W - 2, y + 2  # the height badge, at the top right corner
    badge = _tag("circle", cx=bx, cy=by, r=8.5, fill="#263238", stroke="#ffffff", stroke_width=1.2)
    badge += _tag("text", str(len(pile.cards)), x=bx, y=by + 4, font_size=11, font_weight="bold", fill="#ffffff",
                  text_anchor="middle", cls="height")  # fmt: skip
    cards = "1 card" if len(pile.cards) == 1 else f"{len(pile.cards)} cards"
    shown = f"{pile.top} face up" if pile.face_up else f"{pile.top} face down" if reveal else "face down"
    children = _under(x, y, len(pile.cards) - 1) + ring + top + badge
    return _group(f"{cell}: {shown}, pile of {cards}", children, id=f"pile-{cell}", cls=" ".join(classes))


def _result(game: Game) -> str:
    words = outcome_words(
        game.status, game.reason, score=game.score, face_down=game.face_down, limit=game.rules.face_down_limit,
        rules=game.rules,
    )
    return words[0].upper() + words[1:]


def svg_text(game: Game, *, reveal: bool = False) -> str:
    """The game's layout as an SVG 1.1 document (see the module's doc for what is drawn).

    :param game: the game, at any stage (the start, playing, won, lost); a game
        loaded from a state has no last move, so nothing is marked as flipped.
    :param reveal: write the face-down top cards' identities on their backs (the
        player saw them placed, RULES.md §6); by default a back shows nothing.
    :returns: the document: an XML declaration, one ``<svg>`` element (one element a
        line), a final newline.
    """
    legal = set(game.legal_cells())
    # the region drawn: the piles and the legal cells (as the text grid draws them); the
    # whole frame when there is neither
    rows = [c // STRIDE for c in [*game.grid, *legal]] or [0, game.rules.frame - 1]
    cols = [c % STRIDE for c in [*game.grid, *legal]] or [0, game.rules.frame - 1]
    r0, r1, c0, c1 = min(rows), max(rows), min(cols), max(cols)
    last = game.moves[-1] if game.moves else None
    flipped = set(last.flipped) if last else set()
    title = f"Foursquare, {f'deal {game.deal}' if game.deal is not None else 'a card order'} ({game.rules.label} rules)"
    subtitle = "No card placed yet"
    if last is not None:
        flips = f"flipped {' '.join(str(c) for c in last.flipped)}" if last.flipped else "nothing flipped"
        subtitle = f"Last move: {last.card} to {last.cell}, {flips}"
    grid_w = LABEL + (c1 - c0 + 1) * PITCH_X
    width = math.ceil(2 * MARGIN + max(grid_w + 16 + PANEL_W, _text_width(title, 19), _text_width(subtitle, 13)))
    top, left = MARGIN + 62, MARGIN  # below the title and the subtitle
    height = top + max(LABEL + (r1 - r0 + 1) * PITCH_Y, 300) + 34 + MARGIN  # the grid's height, or the panel's
    labels = "".join(
        [_tag("text", COLUMN_LETTERS[c], x=left + LABEL + (c - c0) * PITCH_X + CARD_W / 2, y=top + 12) for c in range(c0, c1 + 1)]
        + [_tag("text", str(r + 1), x=left + 8, y=top + LABEL + (r - r0) * PITCH_Y + CARD_H / 2 + 4) for r in range(r0, r1 + 1)]
    )  # fmt: skip
    cells = []
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            cell = CELLS[r * STRIDE + c]
            x, y = left + LABEL + (c - c0) * PITCH_X, top + LABEL + (r - r0) * PITCH_Y
            pile = game.grid.get(cell)
            if pile is not None:
                cells.append(_pile(x, y, cell, pile, reveal, cell in flipped, last is not None and cell == last.cell))
            elif cell in legal:
                cells.append(_group(f"{cell}: the card may go here", "".join((  # a dashed outline
                    _tag("rect", x=x + 1, y=y + 1, width=CARD_W - 2, height=CARD_H - 2, rx=6, fill="#ffffff", fill_opacity=0.06,
                         stroke=INK_ON_FELT, stroke_opacity=0.55, stroke_width=1.5, stroke_dasharray="5 4"),
                    _tag("text", str(cell), x=x + CARD_W / 2, y=y + CARD_H / 2 + 6, font_size=14, fill=INK_ON_FELT,
                         fill_opacity=0.5, text_anchor="middle"),
                )), id=f"cell-{cell}", cls="open"))  # fmt: skip
            else:
                cells.append(_tag("circle", cx=x + CARD_W / 2, cy=y + CARD_H / 2, r=2, fill=INK_ON_FELT, fill_opacity=0.25))
    counts = f"stock {game.stock_count}, face down {game.face_down} (limit {game.rules.face_down_limit})"
    nxt = "unknown" if game.next_card is None else game.next_card
    state = f"{_result(game)}; {counts}" if game.is_over else f"Card to place: {nxt}; {counts}"
    return "".join((
        '<?xml version="1.0" encoding="UTF-8"?>\n',
        _tag("svg", xmlns="http://www.w3.org/2000/svg", xmlns_xlink="http://www.w3.org/1999/xlink", version="1.1",
             width=width, height=height, viewBox=f"0 0 {width} {height}",
             font_family="DejaVu Sans, Verdana, Arial, Helvetica, sans-serif")[:-3] + ">\n",
        _tag("title", title),
        _tag("desc", f"{subtitle}. {state}."),
        _DEFS,
        _tag("rect", x=0, y=0, width=width, height=height, rx=18, fill="#0e3b20"),  # the table
        _tag("rect", x=5, y=5, width=width - 10, height=height - 10, rx=14, fill="url(#felt)"),
        _tag("text", title, x=MARGIN, y=MARGIN + 20, font_size=19, font_weight="bold", fill="#ffffff"),
        _tag("text", subtitle, x=MARGIN, y=MARGIN + 42, font_size=13, fill=INK_ON_FELT),
        _group(None, labels, font_size=12, fill=INK_ON_FELT, fill_opacity=0.75, text_anchor="middle", cls="labels"),
        *cells,
        _panel(game, left + grid_w + 16, top),
        _legend(game, MARGIN, height - MARGIN - 6, bool(flipped)),
        "</svg>\n",
    ))  # fmt: skip


def _panel(game: Game, x: float, y: float) -> str:
    """Beside the grid: the stock, the card to place, the face-down count, the result."""
    cx, sy, scale = x + 12, y + 28, 0.62
    w, h = CARD_W * scale, CARD_H * scale
    empty: dict[str, float | str] = {"rx": 4, "fill": "none", "stroke": INK_ON_FELT, "stroke_opacity": 0.5, "stroke_dasharray": "4 3"}
    count = game.stock_count
    stock = _tag("text", "Stock", x=cx, y=y + 20, font_size=12, fill=INK_ON_FELT)
    stock += _under(cx, sy, count - 1, scale) + _card_back(cx, sy, scale) if count else _tag("rect", x=cx, y=sy, width=w, height=h, **empty)
    stock += _tag("text", str(count), x=cx + w / 2 + 2, y=sy + h + 24, font_size=20, font_weight="bold", fill="#ffffff",
                  text_anchor="middle", cls="stock-count")  # fmt: skip
    nx, nxt = x + PANEL_W - 12 - w, game.next_card
    to_place = _tag("text", "Next", x=nx, y=y + 20, font_size=12, fill=INK_ON_FELT)
    if nxt is not None:
        to_place += _card_face(nx, sy, nxt, scale)
    else:
        to_place += _tag("rect", x=nx, y=sy, width=w, height=h, **empty)
        to_place += _tag("text", "-" if game.is_over else "?", x=nx + w / 2, y=sy + h / 2 + 6, font_size=18,
                         fill=INK_ON_FELT, text_anchor="middle")  # fmt: skip
    next_title = f"card to place: {nxt}" if nxt is not None else "no card to place" if game.is_over else "card to place: unknown"
    # the face-down count against the limit, in words and as pips (up to 12)
    limit, down, fy = game.rules.face_down_limit, game.face_down, y + 150
    pips = max(limit, down)
    step = min(16.0, (PANEL_W - 24) / max(pips, 1))
    marks = "".join(
        _tag("circle", cx=cx + 6 + i * step, cy=fy + 14, r=5.5, fill="#e2553f" if i < down else "none",
             stroke="#ffffff" if i >= limit else INK_ON_FELT, stroke_width=1.2, stroke_opacity=0.9)
        for i in range(pips if pips <= 12 else 0)
    )  # fmt: skip
    return _group(None, "".join((
        _tag("rect", x=x, y=y, width=PANEL_W, height=300, rx=10, fill="#000000", fill_opacity=0.16),
        _group(f"stock: {count} cards", stock, cls="stock"),
        _group(next_title, to_place, cls="next"),
        _group(f"face down: {down} (limit {limit})",
               _tag("text", f"Face down {down} (limit {limit})", x=cx, y=fy, font_size=12, fill=INK_ON_FELT) + marks,
               cls="face-down-count"),
        _group(None, _status(game, x, cx, y + 200), cls=f"status {game.status}"),
    )), cls="panel")  # fmt: skip


def _status(game: Game, x: float, cx: float, y: float) -> str:
    """The result (won and its score, lost and why) or how far the game has come."""
    middle = x + PANEL_W / 2
    if game.status is Status.WON:
        return "".join((
            _tag("rect", x=cx - 4, y=y - 4, width=PANEL_W - 16, height=62, rx=8, fill=FLIP_GOLD),
            _tag("text", "Won!", x=middle, y=y + 20, font_size=20, font_weight="bold", fill="#3b2a00", text_anchor="middle"),
            _tag("text", f"score {game.score}", x=middle, y=y + 44, font_size=16, font_weight="bold", fill="#3b2a00",
                 text_anchor="middle", cls="score"),
        ))  # fmt: skip
    if game.status is Status.LOST:
        reason = textwrap.wrap(_result(game).removeprefix("Lost: "), 18, break_long_words=False, break_on_hyphens=False)[:3]
        return "".join([
            _tag("rect", x=cx - 4, y=y - 4, width=PANEL_W - 16, height=88, rx=8, fill="#7f1d1d", fill_opacity=0.85),
            _tag("text", "Lost", x=middle, y=y + 20, font_size=20, font_weight="bold", fill="#ffffff", text_anchor="middle"),
        ] + [
            _tag("text", line, x=middle, y=y + 40 + 14 * i, font_size=11, fill="#ffe9e9", text_anchor="middle")
            for i, line in enumerate(reason)
        ])  # fmt: skip
    return "".join((
        _tag("text", "Playing", x=cx, y=y + 14, font_size=16, font_weight="bold", fill="#ffffff"),
        _tag("text", "1 card placed" if game.placed == 1 else f"{game.placed} cards placed", x=cx, y=y + 34, font_size=12,
             fill=INK_ON_FELT),
        _tag("text", f"{len(game.grid)} of {game.rules.size ** 2} piles", x=cx, y=y + 52, font_size=12, fill=INK_ON_FELT),
    ))  # fmt: skip


def _legend(game: Game, x: float, y: float, flips: bool) -> str:
    """The key at the foot of the picture: what the rings and the badge mean."""
    keys = (((FLIP_GOLD, 2.5, "flipped by the last move"), flips), (("#ffffff", 2, "placed"), bool(game.moves)))
    shown = ""
    for colour, stroke, words in (key for key, drawn in keys if drawn):
        shown += _tag("rect", x=x, y=y - 10, width=14, height=12, rx=3, fill="none", stroke=colour, stroke_width=stroke)
        shown += _tag("text", words, x=x + 20, y=y)
        x += 20 + _text_width(words, 11) + 14
    if game.placed:
        shown += "".join((
            _tag("circle", cx=x + 7, cy=y - 4, r=7, fill="#263238", stroke="#ffffff", stroke_width=1),
            _tag("text", "n", x=x + 7, y=y - 0.5, font_size=9, font_weight="bold", fill="#ffffff", text_anchor="middle"),
            _tag("text", "cards in the pile", x=x + 20, y=y),
        ))  # fmt: skip
    return _group(None, shown, font_size=11, fill=INK_ON_FELT, cls="legend")
