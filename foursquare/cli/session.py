"""An interactive session of play: the game, undo and redo, commands, the recording.

What the ``play`` prompt (and a piped move script) drives, kept apart from
Click so that it can be tested and reused.  A line of input is either a move
(FORMATS.md, move scripts) or one of the commands of :mod:`foursquare.formats.commands`;
:func:`read_entry` tells which.  A :class:`Session` applies moves, takes them
back and replays them, and keeps the transcript file it was asked to record
complete after every change (written to a temporary file and renamed over the
old one, so an interruption never leaves half a file).
"""

from __future__ import annotations

import errno
import importlib.util
import os
import stat
import tempfile
from collections.abc import Callable
from typing import Any

from ..engine.game import Game, Placement
from ..errors import IllegalMoveError, ParseError, quote, shorten
from ..formats.commands import FILE_COMMANDS, FORCED_COMMANDS, HELP, PromptCommand
from ..formats.movescript import Move, parse_entry

#: Commands at the prompt besides a move: usage -> one-line help (the command table's).
COMMANDS: dict[str, str] = HELP

#: ``save! FILE`` and ``state! FILE``: write even over an unrelated file that holds something.
FORCED = FORCED_COMMANDS


def read_entry(line: str, *, at_prompt: bool = False) -> Move | PromptCommand | None:
    """Read one line typed at the prompt or piped in, with the move-script reader
    (:func:`foursquare.movescript.parse_entry`: one syntax for every reader).

    :param line: the line, with or without its line end and comment.
    :param at_prompt: the line was typed at the prompt: an error then ends with
        "; type help for the commands" (a piped script has no one to type it).
    :returns: a :class:`~foursquare.movescript.Move`, a
        :class:`~foursquare.formats.commands.PromptCommand`, or ``None`` for a blank or
        comment-only line.
    :raises ParseError: when the line is neither a move nor a command; the
        message says what is wrong (``not a cell: 'd0' ...``), as a script's does.
        A word starting with ``-`` after ``save`` or ``state`` (other than
        ``state --full``) is an unknown option, not a file name.

    ``save! FILE`` and ``state! FILE`` (prompt only) give the commands ``save!``
    and ``state!``: write FILE even when it holds something else.
    """
    from ..formats.movescript import file_words, strip_line

    words = strip_line(line).split()
    force = False
    if words:
        first = words[0].lower()
        if first in FORCED:
            force = True
            first = first[:-1]
            line = line.lstrip("\ufeff").lstrip()
            line = first + line[len(words[0]) :]
        if first in FILE_COMMANDS:
            words = file_words(line, first)
            for word in words[1:]:
                if word.startswith("-") and not (first == "state" and word == "--full" and not force):
                    if force:
                        raise ParseError(
                            f"{first}!: {quote(word)} is not a file name here ({first}! takes one file;"
                            f" a file whose name starts with '-': ./{shorten(word, 20)})"
                        )
                    known = "the only option is --full; " if first == "state" else ""
                    raise ParseError(
                        f"{first}: unknown option {quote(word)} ({known}{first}! FILE overwrites a file;"
                        f" a file whose name starts with '-': ./{shorten(word, 20)})"
                    )
            if force and len(words) != 2:
                raise ParseError(f"{first}!: name the file, like: {first}! game.yaml")
    try:
        entry = parse_entry(line)
    except ParseError as exc:
        message = str(exc)
        if at_prompt and "command" not in message:
            message += "; type help for the commands"
        raise ParseError(message) from None
    if force and isinstance(entry, PromptCommand):
        return PromptCommand(entry.name + "!", entry.argument)
    return entry


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def writable_target(path: str) -> str:
    """The real file that writing ``path`` means: symbolic links followed.

    :returns: the resolved path (it may not exist yet).
    :raises OSError: naming ``path`` when it exists and is not a regular file
        (a directory, a device, a FIFO, a socket), when it ends with ``/`` (a
        folder's name) or holds a NUL character.
    """
    if "\0" in path:
        raise OSError(errno.EINVAL, "a file name cannot hold a NUL character", path)
    real = os.path.realpath(path)
    try:
        info = os.stat(real)
    except FileNotFoundError:
        if path.endswith(("/", os.sep)):
            raise IsADirectoryError(errno.EISDIR, "names a folder (it ends with /); give a file name", path) from None
        return real
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, path) from None
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a directory, not a file", path)
    if not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EINVAL, "not a regular file (a device, a pipe or a socket); give a file name", path)
    return real


def same_file(a: str, b: str) -> bool:
    """Whether two paths name the same file (links followed; a file not there yet by its path)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return os.path.realpath(a) == os.path.realpath(b) if "\0" not in a + b else False


def write_atomically(path: str, text: str, *, sync: bool = True) -> None:
    """Write ``text`` to ``path`` through a temporary file beside the real target
    (symbolic links followed) and :func:`os.replace`, so that the file is always
    either the old or the new text.

    A new file gets the mode the umask allows (``0o666 & ~umask``); an existing
    file keeps its mode.  The temporary file is removed on every exit that
    Python sees (an error, Ctrl-C, SIGTERM turned into ``SystemExit``).

    :param sync: :func:`os.fsync` the data before the rename.
    :raises OSError: naming ``path`` (never the temporary file) when the file
        cannot be written, or when ``path`` is not a regular file.
    """
    real = writable_target(path)
    try:
        mode = stat.S_IMODE(os.stat(real).st_mode)
    except OSError:
        mode = 0o666 & ~_umask()
    folder = os.path.dirname(real)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".foursquare-", suffix=".tmp", dir=folder)
    except FileNotFoundError:
        raise FileNotFoundError(errno.ENOENT, "no such folder to write the file in", path) from None
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, path) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            os.fchmod(out.fileno(), mode)
            out.write(text)
            out.flush()
            if sync:
                os.fsync(out.fileno())
        os.replace(tmp, real)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OSError(exc.errno, exc.strerror, path) from None
        raise


def transcript_of(game: Game) -> str:
    """The transcript (FORMATS.md) of ``game``: one YAML document."""
    from ..formats.transcript import transcript_text

    return transcript_text(game)


def state_of(game: Game, *, player_view: bool = False) -> str:
    """The state YAML (FORMATS.md) of ``game``."""
    from ..formats.state import state_text

    return state_text(game, player_view=player_view)


def _recommend() -> Callable[..., list[Any]] | None:
    """``foursquare.bots.recommend``, or ``None`` when no bot module provides it."""
    if importlib.util.find_spec("foursquare.bots") is None:
        return None
    bots = importlib.import_module("foursquare.bots")
    recommend: Callable[..., list[Any]] | None = getattr(bots, "recommend", None)
    return recommend


def hints_available() -> bool:
    """Whether a bot module (``foursquare.bots.recommend``) is installed to give hints."""
    return _recommend() is not None


class Session:
    """One game being played: moves, unlimited undo and redo, and a recording.

    :param game: the game to play (new, or resumed with its history).
    :param record: a file to keep the transcript in, or ``None``.
    :param autosave: rewrite the recording after every change (at the prompt);
        otherwise the caller writes it with :meth:`write_record` when it is done
        (a piped script: writing after every move would cost O(n²)).
    :raises OSError: when the recording cannot be written.
    """

    def __init__(
        self, game: Game, *, record: str | None = None, autosave: bool = True, resume: str | None = None
    ) -> None:
        self.game = game
        self.record_path = record
        #: Real paths this session may write over without ``force``: the recording,
        #: the file resumed, and every file it wrote.
        self._own: set[str] = set()
        for path in (record, resume):
            if path is not None:
                self._own.add(os.path.realpath(path))
        self.autosave = autosave
        self.reveal = False
        self._redo: list[Placement] = []
        self._changed()

    def _changed(self) -> None:
        if self.autosave:
            self.write_record()

    def play(self, move: Move) -> Placement:
        """Play a move; a new move forgets what ``redo`` could replay.

        :returns: the placement made.
        :raises IllegalMoveError: when the move is illegal (the message says why),
            including :class:`~foursquare.game.WrongCardError` for a wrong card named.
        """
        placement = self.game.play(move.cell, move.card)
        self._redo.clear()
        self._changed()
        return placement

    def undo(self) -> Placement:
        """Take back the last move.

        :raises IllegalMoveError: when there is nothing to take back.
        """
        placement = self.game.undo()
        self._redo.append(placement)
        self._changed()
        return placement

    def redo(self) -> Placement:
        """Play again the last move taken back.

        :raises IllegalMoveError: when there is nothing to redo.
        """
        if not self._redo:
            raise IllegalMoveError("nothing to redo")
        placement = self._redo[-1]
        done = self.game.play(placement.cell, placement.card)
        self._redo.pop()
        self._changed()
        return done

    def can(self, command: str) -> bool:
        """Whether a game command (``undo``, ``redo``) has something to do now:
        a move to take back, a move taken back to play again."""
        if command == "undo":
            return bool(self.game.moves)
        if command == "redo":
            return bool(self._redo)
        return False

    @property
    def full_history(self) -> bool:
        """Whether every card on the grid was placed by a known move (not resumed
        from a saved state), so that a transcript can record the game."""
        return len(self.game.moves) == self.game.placed

    def check_target(self, path: str, force: bool = False, command: str = "save") -> None:
        """Refuse, like ``play --record``, to write over a file that holds something
        unless it is the recording, the file resumed, one this session wrote, or
        ``force`` is given.

        :raises FileExistsError: naming ``path``; :raises OSError: when ``path``
            is not a regular file.
        """
        real = writable_target(path)
        if force or real in self._own:
            return
        try:
            if os.path.getsize(real) == 0:
                return
        except FileNotFoundError:
            return
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, path) from None
        raise FileExistsError(errno.EEXIST, f"the file exists and is not empty; '{command}! FILE' overwrites it", path)

    def write_file(self, path: str, text: str, force: bool = False, command: str = "save") -> None:
        """Write ``text`` to ``path`` atomically, after :meth:`check_target`.

        :raises OSError: also for a state written into the recording (the next move
            would rewrite it as the transcript: the state would be lost).
        """
        if command == "state" and self.record_path is not None and same_file(path, self.record_path):
            raise OSError(
                errno.EEXIST, "is the recording, rewritten with the transcript after every move; save the state to another file", path
            )
        self.check_target(path, force, command)
        write_atomically(path, text)
        self._own.add(os.path.realpath(path))

    def save(self, path: str, force: bool = False) -> str:
        """Write the game to ``path`` (atomically): its transcript, or its state
        when the game was resumed from a state (a transcript needs every move).

        :param force: write even over an unrelated file that holds something
            (otherwise refused, see :meth:`check_target`).
        :returns: what was written, ``transcript`` or ``state``.
        :raises OSError: when the file cannot be written or is refused.
        """
        if self.full_history:
            self.write_file(path, transcript_of(self.game), force)
            return "transcript"
        self.write_file(path, state_of(self.game), force)
        return "state"

    def write_record(self) -> None:
        """Rewrite the recording, when there is one, with the game as it stands."""
        if self.record_path is not None:
            self.save(self.record_path, force=True)  # checked by the caller before the game started

    def hint(self, budget: float = 1.0) -> list[Any] | None:
        """The bots' estimates for the next card (best first), or ``None`` when no
        bot module is installed.  Each estimate has ``.cell``, ``.win_chance``
        and ``.expected_score``."""
        recommend = _recommend()
        if recommend is None:
            return None
        from ..engine.view import PlayerView

        return recommend(PlayerView.of(self.game), budget=budget)
