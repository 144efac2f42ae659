"""Line editing at the prompt: Tab completion and the line history between sessions.

Only at a terminal (stdin a terminal), and only where the standard library's
:mod:`readline` is there.  Tab completes, at the start of a line, the commands
of the one command table (:mod:`foursquare.formats.commands`) and the cells
where the card in hand may go; after a card (``7H d``) the cells; after
``save``/``state`` (and their ``!`` forms) a file name, and ``--full`` for
``state``.  The lines typed, but for those that end the game (``quit``), are kept in the data folder
(:func:`foursquare.app.datafolder.prompt_history_path`): read at the start, the new
ones appended at the end (so that two prompts at once keep both sessions' lines),
the file cut to its last :data:`HISTORY_LINES` lines.

:class:`Completer` is a plain object, so its candidates can be tested without a
terminal::

    >>> from foursquare.engine.game import Game
    >>> game = Game.from_deal(1)
    >>> _ = game.play("d4")
    >>> Completer(game).candidates("", "c")
    ['c4']
    >>> Completer(game).candidates("", "re")
    ['redo', 'reveal']
"""

from __future__ import annotations

import contextlib
import glob
import os
import sys
from collections.abc import Iterator
from typing import Any, Protocol

from ..app.datafolder import prompt_history_path
from ..engine.cards import Card
from ..engine.game import Game
from ..errors import ParseError
from ..formats.commands import COMMAND_NAMES, FILE_COMMANDS, FORCED_COMMANDS, CommandKind, spec

#: The lines of the prompt's history kept between sessions.
HISTORY_LINES = 1000


class _HasGame(Protocol):
    @property
    def game(self) -> Game: ...


class Completer:
    """Candidates for the word being typed at the prompt, readline's way.

    :param source: the game, or anything with a ``game`` (a
        :class:`~foursquare.app.session.Session`: the game it plays now, after undo too).
    :param words: the words mode's prompt: ``look`` and ``cells`` too, and ``look``
        followed by the cells that hold a pile.
    """

    def __init__(self, source: Game | _HasGame, words: bool = False) -> None:
        self._source = source
        self._words = words
        self._matches: list[str] = []

    @property
    def game(self) -> Game:
        source = self._source
        return source if isinstance(source, Game) else source.game

    def cells(self) -> list[str]:
        """The cells where the card in hand may go, in reading order (none when the game is over)."""
        return [str(cell) for cell in self.game.legal_cells()]

    def candidates(self, before: str, text: str) -> list[str]:
        """The words that may complete ``text``.

        :param before: the line before the word being completed (``"7H "``, ``"save "``).
        :param text: the word so far (``"d"``; empty at a Tab after a space).
        :returns: the matching words, sorted (commands, cells, file names; a folder ends with ``/``).
        """
        words = before.split()
        lower = text.lower()
        if not words:
            options = [*COMMAND_NAMES, *FORCED_COMMANDS, *self.cells(), *(("look", "cells") if self._words else ())]
        elif self._words and words == ["look"]:
            options = [str(cell) for cell in self.game.grid]
        elif len(words) == 1 and _is_card(words[0]):
            options = self.cells()
        elif len(words) == 1 and words[0].lower().rstrip("!") in FILE_COMMANDS:
            # the files whose names start with the text (a folder with /); hidden ones only when
            # the name's last part starts with a dot; a leading ~ is the home folder, as save and
            # state read it, and stays ~ in the names given
            head = text.split("/", 1)[0] if text.startswith("~") else ""
            home = os.path.expanduser(head) if head else ""
            files = [
                (head + path[len(home) :] if head else path) + ("/" if os.path.isdir(path) else "")
                for path in glob.glob(glob.escape(os.path.expanduser(text)) + "*")
            ]
            return sorted(files + (["--full"] if words[0].lower() == "state" and "--full".startswith(text) else []))
        else:
            return []
        return sorted(option for option in options if option.startswith(lower))

    def complete(self, text: str, state: int) -> str | None:
        """readline's completer: the ``state``-th candidate for ``text`` (the line
        read from :func:`readline.get_line_buffer`), ``None`` after the last."""
        if state == 0:
            self._matches = []
            with contextlib.suppress(Exception):  # a completer that raises is silently dropped by readline: never raise
                import readline

                self._matches = self.candidates(readline.get_line_buffer()[: readline.get_begidx()], text)
        return self._matches[state] if state < len(self._matches) else None


def _is_card(word: str) -> bool:
    with contextlib.suppress(ParseError, ValueError):
        Card.parse(word)
        return True
    return False


@contextlib.contextmanager
def prompt_editing(source: Game | _HasGame, history_file: str | None = None, words: bool = False) -> Iterator[None]:
    """Tab completion (:class:`Completer`) and the line history while the prompt runs,
    when stdin is a terminal and :mod:`readline` is there; nothing otherwise.

    :param history_file: the line history's file (default: the data folder's,
        :func:`~foursquare.app.datafolder.prompt_history_path`).  A history that cannot be
        read or written is left out quietly: it is a convenience.
    :param words: the words mode's prompt (:class:`Completer`).
    """
    if not sys.stdin.isatty():
        yield
        return
    try:
        import readline
    except ImportError:  # pragma: no cover - a Python built without it
        yield
        return
    history_file = prompt_history_path() if history_file is None else history_file
    old = readline.get_completer(), readline.get_completer_delims(), readline.get_history_length()
    readline.set_completer(Completer(source, words).complete)
    readline.set_completer_delims(" \t\n")
    readline.parse_and_bind("bind ^I rl_complete" if "libedit" in (readline.__doc__ or "") else "tab: complete")  # libedit: macOS's
    readline.set_history_length(HISTORY_LINES)  # the file's length, cut as lines are appended
    with contextlib.suppress(OSError):  # none yet, or unreadable: a convenience
        readline.read_history_file(history_file)
    _forget_leaving(readline, 0)  # a file written before they were left out
    start = readline.get_current_history_length()  # the lines it holds now
    try:
        yield
    finally:
        with contextlib.suppress(OSError, ValueError):
            _forget_leaving(readline, start)
            new = readline.get_current_history_length() - start  # this session's lines: added to the file
            if new > 0:  # (readline then cuts it to its last HISTORY_LINES lines)
                os.makedirs(os.path.dirname(os.path.abspath(history_file)), exist_ok=True)
                open(history_file, "a", encoding="utf-8").close()  # readline appends only to a file that is there
                readline.append_history_file(new, history_file)
        readline.set_completer(old[0])
        readline.set_completer_delims(old[1])
        readline.set_history_length(old[2])


def _forget_leaving(readline: Any, since: int) -> None:
    """Take out of the line history, from its item ``since`` on, the lines that end the
    game (``quit``, ``q``, ``exit``): a reflexive Up and Enter never leaves a game."""
    for index in reversed(range(since, readline.get_current_history_length())):
        words = (readline.get_history_item(index + 1) or "").split()  # items count from 1 here
        if words and (found := spec(words[0])) is not None and found.kind is CommandKind.STOP:
            readline.remove_history_item(index)  # and from 0 here
