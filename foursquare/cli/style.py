"""The look of the output: colour, suit symbols and width for a stream (:class:`Look`), and wording helpers."""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass
from typing import IO, Any

import click

from ..engine.game import Game

_COLOURS: dict[str, dict[str, Any]] = {
    "red": {"fg": "red", "bold": True},
    "black": {"bold": True},
    "down": {"fg": "blue"},
    "legal": {"fg": "green"},
    "flip": {"fg": "yellow", "bold": True},
    "frame": {"dim": True},
    "title": {"bold": True},
    "error": {"fg": "red"},
}


def shown_percent(share: float, decimals: int = 1) -> float:
    """``share`` (0 to 1) in percent as :func:`percent` shows it: rounded to ``decimals``,
    but certain (100) or hopeless (0) only when exactly so; a share that would round to
    either stands half a step inside it (shown ``>99.9%``, ``<0.1%``)."""
    half = 10.0**-decimals / 2  # (the rounded value kept inside the bounds that share is not)
    return min(max(round(100 * share, decimals), half if share > 0 else 0), 100 - half if share < 1 else 100)


def percent(share: float | None, decimals: int = 1) -> str:
    """A share as a percentage (``96.8%``), ``-`` for none; ``>99.9%`` or ``<0.1%``
    for a share that is not 1 or 0 but would round to it (:func:`shown_percent`)."""
    if share is None:
        return "-"
    value, step = shown_percent(share, decimals), 10.0**-decimals
    mark, value = {100 - step / 2: (">", 100 - step), step / 2: ("<", step)}.get(value, ("", value))
    return f"{mark}{value:.{decimals}f}%"


def counted(number: int, noun: str) -> str:
    """``1 move``, ``2 moves``: a count and its noun, plural when it is not 1."""
    return f"{number} {noun}" + ("" if number == 1 else "s")


@dataclass(frozen=True)
class Look:
    """How to draw for one output stream.

    :ivar color: use colour (ANSI styles through :func:`click.style`).
    :ivar symbols: use suit symbols (``10♦``) rather than ASCII (``TD``).
    :ivar width: the terminal's width (long text lines are broken to fit), or ``None``.
    :ivar words: the game said in sentences, not drawn (:mod:`foursquare.cli.words`).
    """

    color: bool = False
    symbols: bool = False
    width: int | None = None
    words: bool = False

    @classmethod
    def for_stream(cls, stream: IO[str] | None = None, *, ascii: bool = False) -> Look:
        """Colour and symbols only on a terminal that can show them; never colour
        under ``NO_COLOR`` (https://no-color.org) or on a ``TERM=dumb`` terminal;
        neither with ``ascii`` or ``FOURSQUARE_ASCII=1``.  No symbols under a CJK
        locale, whose terminal likely draws East Asian ambiguous-width characters two
        columns wide (``♠♣♥`` among them: the grid's rows would drift).  On a terminal, its width too.

        :param stream: the stream written to (default ``sys.stdout``)."""
        stream = sys.stdout if stream is None else stream
        try:
            terminal = stream.isatty()
        except (AttributeError, ValueError):
            terminal = False
        if not terminal:
            return cls(False, False)
        width = shutil.get_terminal_size().columns or None
        if ascii or os.environ.get("FOURSQUARE_ASCII", "") not in ("", "0"):
            return cls(False, False, width)
        # the locale: the first of LC_ALL, LC_CTYPE, LANG that names a language (Python
        # sets LC_CTYPE=C.UTF-8 itself where the locale named is not installed, PEP 538)
        names = [os.environ.get(name, "") for name in ("LC_ALL", "LC_CTYPE", "LANG")]
        locale = next((name for name in names if name and name not in ("C", "POSIX") and not name.startswith("C.")), "")
        try:
            "♣♦♥♠".encode(getattr(stream, "encoding", None) or "ascii")
            symbols = not locale.lower().startswith(("ja", "ko", "zh"))
        except (LookupError, UnicodeEncodeError):
            symbols = False
        return cls(not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb", symbols, width)

    def style(self, text: str, role: str) -> str:
        """``text`` styled for its role (``red``, ``frame``, ``error``...) when colour is on
        (see :mod:`foursquare.cli.render`)."""
        return click.style(text, **_COLOURS[role]) if self.color and role in _COLOURS else text

    def draw(self, game: Game, *, reveal: bool = False, label: str = "Last move") -> str:
        """:func:`foursquare.cli.render.draw` with this look (symbols, colour, width)."""
        from .render import draw

        return draw(game, symbols=self.symbols, reveal=reveal, style=self.style, label=label, width=self.width)

    def echo(self, text: str = "", **kwargs: Any) -> None:
        """:func:`click.echo` with this look's colour decision."""
        click.echo(text, color=self.color, **kwargs)
