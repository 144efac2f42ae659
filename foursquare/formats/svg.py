"""A picture of a game as SVG: the layout on a card table, to open in a browser or share.

:func:`svg_text` draws what a player sees (RULES.md §6) as one self-contained SVG
1.1 document: no external fonts, images or scripts, a ``viewBox`` so that it scales,
a ``<title>`` and a ``<desc>`` in words.  It is built with :mod:`xml.etree`, so the
text is well-formed XML whatever the cards, cells or rule names hold.

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
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass

from ..engine.cards import RANK_CHARS, SUIT_CHARS, Card
from ..engine.game import Game, Pile
from ..engine.layout import CELLS, COLUMN_LETTERS, STRIDE, Cell
from ..engine.outcome import Status, outcome_words

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"

#: A card's size and the pitch of the grid, in SVG user units (px at scale 1).
CARD_W, CARD_H = 60, 84
PITCH_X, PITCH_Y = 72, 98
MARGIN = 18
HEADER = 62
LABEL = 20  # room for the column letters above the grid and the row numbers left of it
PANEL_W = 150
FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
#: Rough width of one character of the font, as a share of its size (for laying out text).
CHAR_WIDTH = 0.62

#: Suit colours by suit number (clubs, diamonds, hearts, spades): a four-colour deck.
SUIT_COLOURS = ("#1d7a3a", "#1f5fbf", "#c62828", "#1b1b1b")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
FELT_LIGHT, FELT_DARK, FELT_EDGE = "#2f8a50", "#17532e", "#0e3b20"
INK_ON_FELT = "#e8f3ea"
FLIP_GOLD = "#ffcc33"
BACK_BLUE, BACK_LINE = "#1e4a9a", "#4f7fd6"
FACE_DOWN_RED = "#e2553f"

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


def rank_text(card: Card) -> str:
    """The rank as printed on a card face: ``A``, ``2`` … ``10``, ``J``, ``Q``, ``K``."""
    return "10" if card.rank == 10 else RANK_CHARS[card.rank]


def _num(value: float) -> str:
    """A coordinate as short text: ``12``, ``12.5``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _text_width(text: str, size: float) -> float:
    return len(text) * size * CHAR_WIDTH


class _Drawing:
    """The element tree of one picture and the helpers that add to it."""

    def __init__(self, width: float, height: float) -> None:
        self.root = ET.Element(
            "svg",
            {
                "xmlns": SVG_NS,
                "xmlns:xlink": XLINK_NS,
                "version": "1.1",
                "width": _num(width),
                "height": _num(height),
                "viewBox": f"0 0 {_num(width)} {_num(height)}",
                "font-family": FONT,
            },
        )

    def add(self, parent: ET.Element | None, tag: str, **attrs: float | str) -> ET.Element:
        """A child element; attribute names are written with ``-`` for ``_`` (``font_size``)."""
        values = {key.replace("_", "-"): _num(v) if isinstance(v, (int, float)) else v for key, v in attrs.items()}
        return ET.SubElement(self.root if parent is None else parent, tag, values)

    def text(self, parent: ET.Element | None, x: float, y: float, words: str, **attrs: float | str) -> ET.Element:
        element = self.add(parent, "text", x=x, y=y, **attrs)
        element.text = words
        return element

    def use(self, parent: ET.Element, ref: str, x: float, y: float, size: float, **attrs: float | str) -> ET.Element:
        element = self.add(parent, "use", x=x, y=y, width=size, height=size, **attrs)
        element.set("xlink:href", "#" + ref)
        return element


def _defs(d: _Drawing) -> None:
    defs = d.add(None, "defs")
    felt = d.add(defs, "radialGradient", id="felt", cx="50%", cy="42%", r="75%")
    d.add(felt, "stop", offset="0", stop_color=FELT_LIGHT)
    d.add(felt, "stop", offset="1", stop_color=FELT_DARK)
    face = d.add(defs, "linearGradient", id="face", x1="0", y1="0", x2="0", y2="1")
    d.add(face, "stop", offset="0", stop_color="#ffffff")
    d.add(face, "stop", offset="1", stop_color="#f3efe4")
    lattice = d.add(defs, "pattern", id="lattice", width=8, height=8, patternUnits="userSpaceOnUse")
    d.add(lattice, "rect", width=8, height=8, fill=BACK_BLUE)
    d.add(lattice, "path", d="M0 4L4 0L8 4L4 8z", fill="none", stroke=BACK_LINE, stroke_width=1)
    for suit, path in enumerate(_SUIT_PATHS):
        symbol = d.add(defs, "symbol", id=f"suit-{SUIT_CHARS[suit]}", viewBox="0 0 100 100")
        d.add(symbol, "path", d=path, fill=SUIT_COLOURS[suit])


def _card_face(d: _Drawing, parent: ET.Element, x: float, y: float, card: Card, scale: float = 1.0) -> None:
    """A face-up card at (x, y): the rank and a small suit in the corner, a large rank
    and suit in the middle (the rank is what the rules compare, so it is the largest)."""
    w, h = CARD_W * scale, CARD_H * scale
    colour = SUIT_COLOURS[card.suit]
    suit = f"suit-{SUIT_CHARS[card.suit]}"
    d.add(parent, "rect", x=x, y=y, width=w, height=h, rx=6 * scale, fill="url(#face)", stroke="#9c9585", stroke_width=1)
    rank = rank_text(card)
    d.text(parent, x + 5 * scale, y + 16 * scale, rank, font_size=14 * scale, font_weight="bold", fill=colour,
           letter_spacing=-1 if len(rank) > 1 else 0, **{"class": "rank"})
    d.use(parent, suit, x + 5 * scale, y + 19 * scale, 11 * scale)
    d.text(parent, x + w / 2 + 2 * scale, y + 53 * scale, rank, font_size=(26 if len(rank) > 1 else 30) * scale,
           font_weight="bold", fill=colour, text_anchor="middle", letter_spacing=-2 if len(rank) > 1 else 0,
           **{"class": "rank"})
    d.use(parent, suit, x + w / 2 - 10 * scale, y + 58 * scale, 20 * scale)


def _card_back(d: _Drawing, parent: ET.Element, x: float, y: float, scale: float = 1.0, shown: Card | None = None) -> None:
    """A card back at (x, y); ``shown``: the card's identity in small print (revealed)."""
    w, h = CARD_W * scale, CARD_H * scale
    d.add(parent, "rect", x=x, y=y, width=w, height=h, rx=6 * scale, fill="#fbfaf5", stroke="#9c9585", stroke_width=1)
    d.add(parent, "rect", x=x + 4 * scale, y=y + 4 * scale, width=w - 8 * scale, height=h - 8 * scale, rx=3 * scale,
          fill="url(#lattice)", stroke=BACK_BLUE, stroke_width=1)
    if shown is not None:
        d.add(parent, "rect", x=x + 10 * scale, y=y + h / 2 - 11 * scale, width=w - 20 * scale, height=22 * scale,
              rx=4 * scale, fill="#fbfaf5", fill_opacity=0.92)
        d.text(parent, x + w / 2, y + h / 2 + 5 * scale, str(shown), font_size=13 * scale, font_weight="bold",
               fill=SUIT_COLOURS[shown.suit], text_anchor="middle")


def _pile_title(cell: Cell, pile: Pile, reveal: bool) -> str:
    height = len(pile.cards)
    cards = "1 card" if height == 1 else f"{height} cards"
    if pile.face_up:
        top = f"{pile.top} face up"
    elif reveal:
        top = f"{pile.top} face down"
    else:
        top = "face down"
    return f"{cell}: {top}, pile of {cards}"


@dataclass(frozen=True, slots=True)
class _Marks:
    """How a pile is drawn: its face-down top card shown (``reveal``), flipped by the
    last move, or the card the last move placed."""

    reveal: bool
    flipped: bool
    placed: bool


def _pile(d: _Drawing, x: float, y: float, cell: Cell, pile: Pile, marks: _Marks) -> None:
    reveal, flipped, placed = marks.reveal, marks.flipped, marks.placed
    classes = ["pile", "face-up" if pile.face_up else "face-down"]
    if flipped:
        classes.append("flipped")
    if placed:
        classes.append("placed")
    group = d.add(None, "g", id=f"pile-{cell}", **{"class": " ".join(classes)})
    ET.SubElement(group, "title").text = _pile_title(cell, pile, reveal)
    height = len(pile.cards)
    under = min(height - 1, 3)  # the edges of the cards below: at most three drawn
    for i in range(under, 0, -1):
        d.add(group, "rect", x=x + 2 * i, y=y + 3 * i, width=CARD_W, height=CARD_H, rx=6, fill="#ece6d6",
              stroke="#8a8373", stroke_width=1)
    if flipped:
        d.add(group, "rect", x=x - 4, y=y - 4, width=CARD_W + 8, height=CARD_H + 8, rx=9, fill="none",
              stroke=FLIP_GOLD, stroke_width=3.5, **{"class": "flip-mark"})
    elif placed:
        d.add(group, "rect", x=x - 3.5, y=y - 3.5, width=CARD_W + 7, height=CARD_H + 7, rx=8.5, fill="none",
              stroke="#ffffff", stroke_width=2, stroke_opacity=0.9, **{"class": "placed-mark"})
    if pile.face_up:
        _card_face(d, group, x, y, pile.top)
    else:
        _card_back(d, group, x, y, shown=pile.top if reveal else None)
    # the height badge, at the top right corner
    bx, by = x + CARD_W - 2, y + 2
    d.add(group, "circle", cx=bx, cy=by, r=8.5, fill="#263238", stroke="#ffffff", stroke_width=1.2)
    d.text(group, bx, by + 4, str(height), font_size=11, font_weight="bold", fill="#ffffff", text_anchor="middle",
           **{"class": "height"})


def _title(game: Game) -> str:
    origin = f"deal {game.deal}" if game.deal is not None else "a card order"
    return f"Foursquare, {origin} ({game.rules.label} rules)"


def _last_move(game: Game) -> str | None:
    if not game.moves:
        return None
    last = game.moves[-1]
    flips = f"flipped {' '.join(str(c) for c in last.flipped)}" if last.flipped else "nothing flipped"
    return f"Last move: {last.card} to {last.cell}, {flips}"


def _result(game: Game) -> str:
    words = outcome_words(
        game.status, game.reason, score=game.score, face_down=game.face_down, limit=game.rules.face_down_limit,
        rules=game.rules,
    )
    return words[0].upper() + words[1:]


def _region(game: Game) -> tuple[int, int, int, int]:
    """(top row, bottom row, left column, right column) drawn: the piles and the legal
    cells (as the text grid draws them); the whole frame when there is neither."""
    cells: list[int] = [*game.grid, *game.legal_cells()]
    if not cells:
        last = game.rules.frame - 1
        return 0, last, 0, last
    rows = [c // STRIDE for c in cells]
    cols = [c % STRIDE for c in cells]
    return min(rows), max(rows), min(cols), max(cols)


def _lines_width(lines: Iterable[tuple[str, float]]) -> float:
    return max((_text_width(text, size) for text, size in lines), default=0.0)


def svg_text(game: Game, *, reveal: bool = False) -> str:
    """The game's layout as an SVG 1.1 document (see the module's doc for what is drawn).

    :param game: the game, at any stage (the start, playing, won, lost); a game
        loaded from a state has no last move, so nothing is marked as flipped.
    :param reveal: write the face-down top cards' identities on their backs (the
        player saw them placed, RULES.md §6); by default a back shows nothing.
    :returns: the document: an XML declaration, one ``<svg>`` element (one element a
        line, indented), a final newline.
    """
    r0, r1, c0, c1 = _region(game)
    rows, cols = r1 - r0 + 1, c1 - c0 + 1
    grid = game.grid
    legal = set(game.legal_cells())
    last = game.moves[-1] if game.moves else None
    flipped = set(last.flipped) if last else set()
    title = _title(game)
    subtitle = _last_move(game) or "No card placed yet"
    grid_w = LABEL + cols * PITCH_X
    grid_h = LABEL + rows * PITCH_Y
    body_w = grid_w + 16 + PANEL_W
    width = math.ceil(2 * MARGIN + max(body_w, _lines_width([(title, 19), (subtitle, 13)])))
    panel_h = 300
    height = MARGIN + HEADER + max(grid_h, panel_h) + 34 + MARGIN
    d = _Drawing(width, height)
    ET.SubElement(d.root, "title").text = title
    desc = [subtitle + ".", _status_words(game) + "."]
    ET.SubElement(d.root, "desc").text = " ".join(desc)
    _defs(d)
    # the table
    d.add(None, "rect", x=0, y=0, width=width, height=height, rx=18, fill=FELT_EDGE)
    d.add(None, "rect", x=5, y=5, width=width - 10, height=height - 10, rx=14, fill="url(#felt)")
    d.text(None, MARGIN, MARGIN + 20, title, font_size=19, font_weight="bold", fill="#ffffff")
    d.text(None, MARGIN, MARGIN + 42, subtitle, font_size=13, fill=INK_ON_FELT)
    top = MARGIN + HEADER
    left = MARGIN
    # column letters and row numbers
    labels = d.add(None, "g", font_size=12, fill=INK_ON_FELT, fill_opacity=0.75, text_anchor="middle",
                   **{"class": "labels"})
    for c in range(c0, c1 + 1):
        d.text(labels, left + LABEL + (c - c0) * PITCH_X + CARD_W / 2, top + 12, COLUMN_LETTERS[c])
    for r in range(r0, r1 + 1):
        d.text(labels, left + 8, top + LABEL + (r - r0) * PITCH_Y + CARD_H / 2 + 4, str(r + 1))
    # the cells
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            cell = CELLS[r * STRIDE + c]
            x = left + LABEL + (c - c0) * PITCH_X
            y = top + LABEL + (r - r0) * PITCH_Y
            pile = grid.get(cell)
            if pile is not None:
                _pile(d, x, y, cell, pile, _Marks(reveal, cell in flipped, last is not None and cell == last.cell))
            elif cell in legal:
                spot = d.add(None, "g", id=f"cell-{cell}", **{"class": "open"})
                ET.SubElement(spot, "title").text = f"{cell}: the card may go here"
                d.add(spot, "rect", x=x + 1, y=y + 1, width=CARD_W - 2, height=CARD_H - 2, rx=6, fill="#ffffff",
                      fill_opacity=0.06, stroke=INK_ON_FELT, stroke_opacity=0.55, stroke_width=1.5,
                      stroke_dasharray="5 4")
                d.text(spot, x + CARD_W / 2, y + CARD_H / 2 + 6, str(cell), font_size=14, fill=INK_ON_FELT,
                       fill_opacity=0.5, text_anchor="middle")
            else:
                d.add(None, "circle", cx=x + CARD_W / 2, cy=y + CARD_H / 2, r=2, fill=INK_ON_FELT, fill_opacity=0.25)
    _panel(d, game, left + grid_w + 16, top)
    _legend(d, game, MARGIN, height - MARGIN - 6, bool(flipped))
    ET.indent(d.root, space=" ")  # one element a line: readable, and a diff shows what changed
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(d.root, encoding="unicode") + "\n"


def _status_words(game: Game) -> str:
    limit = game.rules.face_down_limit
    counts = f"stock {game.stock_count}, face down {game.face_down} (limit {limit})"
    if game.is_over:
        return f"{_result(game)}; {counts}"
    nxt = game.next_card
    return f"Card to place: {nxt if nxt is not None else 'unknown'}; {counts}"


def _panel(d: _Drawing, game: Game, x: float, y: float) -> None:
    """Beside the grid: the stock, the card to place, the face-down count, the result."""
    panel = d.add(None, "g", **{"class": "panel"})
    d.add(panel, "rect", x=x, y=y, width=PANEL_W, height=300, rx=10, fill="#000000", fill_opacity=0.16)
    cx = x + 12
    # the stock
    stock = d.add(panel, "g", **{"class": "stock"})
    ET.SubElement(stock, "title").text = f"stock: {game.stock_count} cards"
    d.text(stock, cx, y + 20, "Stock", font_size=12, fill=INK_ON_FELT)
    scale = 0.62
    sy = y + 28
    if game.stock_count:
        for i in range(min(game.stock_count - 1, 3), 0, -1):
            d.add(stock, "rect", x=cx + 2 * i, y=sy + 2 * i, width=CARD_W * scale, height=CARD_H * scale, rx=4,
                  fill="#ece6d6", stroke="#8a8373", stroke_width=1)
        _card_back(d, stock, cx, sy, scale)
    else:
        d.add(stock, "rect", x=cx, y=sy, width=CARD_W * scale, height=CARD_H * scale, rx=4, fill="none",
              stroke=INK_ON_FELT, stroke_opacity=0.5, stroke_dasharray="4 3")
    d.text(stock, cx + CARD_W * scale / 2 + 2, sy + CARD_H * scale + 24, str(game.stock_count), font_size=20,
           font_weight="bold", fill="#ffffff", text_anchor="middle", **{"class": "stock-count"})
    # the card to place
    nx = x + PANEL_W - 12 - CARD_W * scale
    to_place = d.add(panel, "g", **{"class": "next"})
    d.text(to_place, nx, y + 20, "Next", font_size=12, fill=INK_ON_FELT)
    nxt = game.next_card
    if nxt is not None:
        ET.SubElement(to_place, "title").text = f"card to place: {nxt}"
        _card_face(d, to_place, nx, sy, nxt, scale)
    else:
        ET.SubElement(to_place, "title").text = "no card to place" if game.is_over else "card to place: unknown"
        d.add(to_place, "rect", x=nx, y=sy, width=CARD_W * scale, height=CARD_H * scale, rx=4, fill="none",
              stroke=INK_ON_FELT, stroke_opacity=0.5, stroke_dasharray="4 3")
        d.text(to_place, nx + CARD_W * scale / 2, sy + CARD_H * scale / 2 + 6, "?" if not game.is_over else "-",
               font_size=18, fill=INK_ON_FELT, text_anchor="middle")
    # the face-down count against the limit
    limit = game.rules.face_down_limit
    fy = y + 150
    down = d.add(panel, "g", **{"class": "face-down-count"})
    ET.SubElement(down, "title").text = f"face down: {game.face_down} (limit {limit})"
    d.text(down, cx, fy, f"Face down {game.face_down} (limit {limit})", font_size=12, fill=INK_ON_FELT)
    pips = max(limit, game.face_down)
    if pips <= 12:
        step = min(16.0, (PANEL_W - 24) / max(pips, 1))
        for i in range(pips):
            filled = i < game.face_down
            over = i >= limit
            d.add(down, "circle", cx=cx + 6 + i * step, cy=fy + 14, r=5.5,
                  fill=(FACE_DOWN_RED if filled else "none"), stroke="#ffffff" if over else INK_ON_FELT,
                  stroke_width=1.2, stroke_opacity=0.9)
    # the status or the result
    sy2 = y + 200
    status = d.add(panel, "g", **{"class": f"status {game.status}"})
    if game.status is Status.WON:
        d.add(status, "rect", x=cx - 4, y=sy2 - 4, width=PANEL_W - 16, height=62, rx=8, fill=FLIP_GOLD)
        d.text(status, x + PANEL_W / 2, sy2 + 20, "Won!", font_size=20, font_weight="bold", fill="#3b2a00",
               text_anchor="middle")
        d.text(status, x + PANEL_W / 2, sy2 + 44, f"score {game.score}", font_size=16, font_weight="bold",
               fill="#3b2a00", text_anchor="middle", **{"class": "score"})
    elif game.status is Status.LOST:
        d.add(status, "rect", x=cx - 4, y=sy2 - 4, width=PANEL_W - 16, height=88, rx=8, fill="#7f1d1d",
              fill_opacity=0.85)
        d.text(status, x + PANEL_W / 2, sy2 + 20, "Lost", font_size=20, font_weight="bold", fill="#ffffff",
               text_anchor="middle")
        reason = _result(game).removeprefix("Lost: ")
        for i, line in enumerate(_wrap(reason, 18)[:3]):
            d.text(status, x + PANEL_W / 2, sy2 + 40 + 14 * i, line, font_size=11, fill="#ffe9e9",
                   text_anchor="middle")
    else:
        placed = "1 card placed" if game.placed == 1 else f"{game.placed} cards placed"
        d.text(status, cx, sy2 + 14, "Playing", font_size=16, font_weight="bold", fill="#ffffff")
        d.text(status, cx, sy2 + 34, placed, font_size=12, fill=INK_ON_FELT)
        piles = len(game.grid)
        target = game.rules.size * game.rules.size
        d.text(status, cx, sy2 + 52, f"{piles} of {target} piles", font_size=12, fill=INK_ON_FELT)


def _wrap(text: str, width: int) -> list[str]:
    lines = [""]
    for word in text.split():
        if lines[-1] and len(lines[-1]) + 1 + len(word) > width:
            lines.append(word)
        else:
            lines[-1] = f"{lines[-1]} {word}".strip()
    return lines


def _legend(d: _Drawing, game: Game, x: float, y: float, flips: bool) -> None:
    """The key at the foot of the picture: what the rings and the badge mean."""
    legend = d.add(None, "g", font_size=11, fill=INK_ON_FELT, **{"class": "legend"})
    cursor = x
    if flips:
        d.add(legend, "rect", x=cursor, y=y - 10, width=14, height=12, rx=3, fill="none", stroke=FLIP_GOLD,
              stroke_width=2.5)
        d.text(legend, cursor + 20, y, "flipped by the last move")
        cursor += 20 + _text_width("flipped by the last move", 11) + 14
    if game.moves:
        d.add(legend, "rect", x=cursor, y=y - 10, width=14, height=12, rx=3, fill="none", stroke="#ffffff",
              stroke_width=2)
        d.text(legend, cursor + 20, y, "placed")
        cursor += 20 + _text_width("placed", 11) + 14
    if not game.placed:
        return
    d.add(legend, "circle", cx=cursor + 7, cy=y - 4, r=7, fill="#263238", stroke="#ffffff", stroke_width=1)
    d.text(legend, cursor + 7, y - 0.5, "n", font_size=9, font_weight="bold", fill="#ffffff", text_anchor="middle")
    d.text(legend, cursor + 20, y, "cards in the pile")
