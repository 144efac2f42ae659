"""Input files, by their former single home: the names of :mod:`.files` (reading a
file or standard input), :mod:`.deck` (deck files) and :mod:`.loading` (telling
the kinds of file apart and loading the game), for code that imports them from here.

New code imports them from those modules.
"""

from __future__ import annotations

from .deck import read_deck, read_deck_file
from .files import MAX_INPUT_BYTES, STDIN, read_source
from .loading import input_kind, load_input, load_view, next_card_unknown

__all__ = [
    "MAX_INPUT_BYTES", "STDIN", "input_kind", "load_input", "load_view", "next_card_unknown",
    "read_deck", "read_deck_file", "read_source",
]
