"""An interactive session of play: the game, undo and redo, commands, the recording.

What the ``play`` prompt (and a piped move script) drives, kept apart from
Click so that it can be tested and reused.  A line of input is either a move
(FORMATS.md, move scripts) or one of the commands of :mod:`foursquare.formats.commands`;
:func:`read_entry` tells which.  A :class:`Session` applies moves, takes them
back and replays them, and keeps the transcript file it was asked to record
complete after every change (written to a temporary file and renamed over the
old one, so an interruption never leaves half a file; :mod:`foursquare.app.files`).
A recording that cannot be written (the disk full) does not stop the game: the
session keeps why (:attr:`Session.record_error`, for the caller to tell), tries
again after every change, and knows how far the file is behind
(:attr:`Session.file_moves`).  The game history
(:mod:`foursquare.history.store`) is kept the same way: the game rewritten in it
after every change, a failure kept and tried again, never stopping the game
(:meth:`Session.end`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from typing import TYPE_CHECKING

from ..engine.game import Game, Placement
from ..errors import IllegalMoveError, ParseError, quote, shorten
from ..formats.commands import FILE_COMMANDS, STATE_FULL, PromptCommand
from ..formats.movescript import Move, parse_entry
from .files import LockedFile, claim, same_file, writable_target, write_atomically

if TYPE_CHECKING:
    from ..bots import Estimate
    from ..history.recorder import GameRecorder

__all__ = [
    "Session", "read_entry", "same_file", "start_again", "writable_target", "write_atomically"
]


def read_entry(line: str) -> Move | PromptCommand | None:
    """Read one line typed at the prompt or piped in, with the move-script reader
    (:func:`foursquare.formats.movescript.parse_entry`: one syntax for every reader).

    :param line: the line, with or without its line end and comment.
    :returns: a :class:`~foursquare.formats.movescript.Move`, a
        :class:`~foursquare.formats.commands.PromptCommand`, or ``None`` for a blank or
        comment-only line.
    :raises ParseError: when the line is neither a move nor a command; the
        message says what is wrong (``not a cell: 'd0' ...``), as a script's does.
        A word starting with ``-`` after ``save`` or ``state`` (other than
        ``state --full``) is an unknown option, not a file name.

    ``save! FILE`` and ``state! FILE`` give the commands ``save!`` and ``state!``:
    write FILE even when it holds something else.
    """
    from ..formats.movescript import file_words, strip_line

    words = strip_line(line).split()
    name = words[0].lower() if words else ""
    if name.rstrip("!") in FILE_COMMANDS:
        for word in file_words(line, name.rstrip("!"))[1:]:
            if word.startswith("-") and (name, word) != ("state", STATE_FULL):
                short = f"a file whose name starts with '-': ./{shorten(word, 20)}"
                known = f"the only option is {STATE_FULL}; " if name == "state" else ""
                raise ParseError(
                    f"{name}: {quote(word)} is not a file name here ({name} takes one file; {short})" if name.endswith("!")
                    else f"{name}: unknown option {quote(word)} ({known}{name}! FILE overwrites a file; {short})"
                )
    return parse_entry(line)


def start_again(game: Game) -> Game | None:
    """``game`` again from its start (the prompt's ``again``): its deal, or its card order,
    under its rules; ``None`` when its start is not known (resumed from a saved state
    with no deal)."""
    if game.deal is not None:
        return Game.from_deal(game.deal, game.rules)
    return Game(game.deck, game.rules) if len(game.moves) == game.placed else None


#: How much of the top of a file resumed is read for its comments.
_TOP_BYTES = 64 * 1024


def _comments_at_top(path: str) -> str:
    """The comment lines at the top of the regular file ``path`` (empty when it cannot be
    read, and for a pipe or a device, which cannot be read twice)."""
    from ..formats.transcript import leading_comments

    if not os.path.isfile(path):
        return ""
    with contextlib.suppress(OSError, ValueError), open(path, encoding="utf-8", errors="replace") as file:
        text = file.read(_TOP_BYTES)
        return leading_comments(text[: text.rfind("\n") + 1])  # whole lines only (a game follows its comments)
    return ""


class Session:
    """One game being played: moves, unlimited undo and redo, and a recording.

    :param game: the game to play (new, or resumed with its history).
    :param record: a file to keep the transcript in, or ``None``.
    :param autosave: rewrite the recording after every change (at the prompt);
        otherwise the caller writes it with :meth:`write_record` when it is done
        (a piped script: writing after every move would cost O(n²)).
    :param recording: the recording's file, already claimed (:func:`~foursquare.app.files.claim`:
        open and locked); without it, the file is claimed at its first write.
    :param history: keeps the game in the game history: rewritten after every change
        with ``autosave``, and always at :meth:`end`; ``None``: not recorded.
    :param resumed_from: the file the game was read from (``--resume``): the comments
        at its top (:func:`~foursquare.formats.transcript.leading_comments`, an
        editor's modeline) are kept at the top of every rewrite of that file.
    :raises OSError: when the recording cannot be written at the start (nothing is
        played yet: the caller refuses the game); later failures are kept in
        :attr:`record_error` (the caller tells it once).
    """

    def __init__(
        self,
        game: Game,
        *,
        record: str | None = None,
        autosave: bool = True,
        resume: str | None = None,
        recording: LockedFile | None = None,
        history: GameRecorder | None = None,
        resumed_from: str | None = None,
    ) -> None:
        self.game = game
        self._resumed_from = resumed_from
        #: The comments at the top of the file resumed, written back at its top.
        self._comments = _comments_at_top(resumed_from) if resumed_from is not None else ""
        self.history = history
        #: The hints asked in this session (kept in the history).
        self.hints_asked = 0
        self.record_path = record
        #: Real paths this session may write over without ``force``: the recording,
        #: the file resumed, and every file it wrote.
        self._own = {os.path.realpath(path) for path in (record, resume) if path is not None}
        self.autosave = autosave
        self.reveal = False  # face-down cards shown (play --reveal, the prompt's reveal)
        #: The moves taken back, that redo plays again (the last at the end); a recording drops them
        #: (it holds the game as it stands) unless they are played again.
        self.taken_back: list[Placement] = []
        self._recording = recording
        #: Why the last write of the recording failed (``None``: the file is complete; set only
        #: with a recording, so that it says whether the file on disk misses something).
        self.record_error: OSError | None = None
        #: The moves the recording holds on disk (the game resumed from it, or none).
        self.file_moves = len(game.moves) if record and resume and same_file(record, resume) else 0
        # a new recording is written at once, at the prompt or not: its file appears
        # whole, with its first document, and a second writer is refused at the start
        if record is not None and (self.autosave or (recording is not None and recording.pending)):
            self._write_recording(self._kept_on_top(record, self.text()))  # raised: nothing is played yet

    def _changed(self) -> None:
        if self.history is not None:
            self.history.watch()  # a loss reached is kept, even when undone before the history is written
        if self.autosave:
            self.write_record()
            if self.history is not None:
                self.history.update(self.hints_asked)

    def end(self) -> BaseException | None:
        """The end of the session: the game written in the history as it stands,
        with the end time, and the file closed.

        :returns: why the history does not hold the game (the last write failed),
            else ``None`` (also when its file was refused: said at the start).
        """
        history = self.history
        if history is None:
            return None
        if history.active:
            history.update(self.hints_asked, ended=True)
        history.close()
        return history.error if history.active else None

    def play(self, move: Move) -> Placement:
        """Play a move; a new move forgets what ``redo`` could replay.

        :returns: the placement made.
        :raises IllegalMoveError: when the move is illegal (the message says why),
            including one for a wrong card named (its fact ``drawn``).
        """
        placement = self.game.play(move.cell, move.card)
        self.taken_back.clear()
        self._changed()
        return placement

    def undo(self) -> Placement:
        """Take back the last move.

        :raises IllegalMoveError: when there is nothing to take back.
        """
        placement = self.game.undo()
        self.taken_back.append(placement)
        self._changed()
        return placement

    def redo(self) -> Placement:
        """Play again the last move taken back.

        :raises IllegalMoveError: when there is nothing to redo.
        """
        if not self.taken_back:
            raise IllegalMoveError("nothing to redo")
        done = self.game.play(self.taken_back[-1].cell, self.taken_back[-1].card)
        self.taken_back.pop()
        self._changed()
        return done

    def can(self, command: str) -> bool:
        """Whether a command that changes or ends the game has something to do now:
        ``undo`` a move to take back, ``redo`` a move taken back to play again,
        ``again`` a start to play again (:func:`start_again`); ``new`` and ``quit`` always."""
        if command == "again":
            return start_again(self.game) is not None
        return {"undo": bool(self.game.moves), "redo": bool(self.taken_back)}.get(command, command in ("new", "quit"))

    def write_file(self, path: str, text: str, force: bool = False, command: str = "save") -> None:
        """Write ``text`` to ``path`` atomically.  Like ``play --record``, refuse to write
        over a file that holds something unless it is the recording, the file resumed, one
        this session wrote, or ``force`` is given (checked under the file's lock).

        :raises FileExistsError: naming ``path``, for a file that holds something.
        :raises OSError: when the file cannot be written; also for a state written into the
            recording (the next move would rewrite it as the transcript: the state would be lost).
        """
        if command == "state" and self.record_path is not None and same_file(path, self.record_path):
            raise OSError(
                errno.EEXIST, "is the recording, rewritten with the transcript after every move; save the state to another file", path
            )
        text = self._kept_on_top(path, text)
        if self.record_path is not None and same_file(path, self.record_path):
            self._write_recording(text)
        else:  # refused when it holds something, unless it is the session's own or forced
            write_atomically(path, text, unless_full=None if force or writable_target(path) in self._own else (
                f"the file exists and is not empty; '{command}! FILE' overwrites it"
            ))
        self._own.add(os.path.realpath(path))

    def _kept_on_top(self, path: str, text: str) -> str:
        """``text`` with the comments at the top of the file resumed when ``path`` is that file."""
        on_top = self._comments and self._resumed_from is not None and same_file(path, self._resumed_from)
        return self._comments + text if on_top else text

    def _write_recording(self, text: str) -> None:
        """Rewrite the recording through its claimed, locked file (claimed now if it is not yet)."""
        assert self.record_path is not None
        if self._recording is None:
            self._recording = claim(self.record_path, whole=True)
        self._recording.rewrite(text)
        self.file_moves = len(self.game.moves)
        self.record_error = None

    def text(self) -> str:
        """What ``save FILE`` writes: the transcript, or the state when the game was resumed from a state
        (a transcript needs every card on the grid placed by a known move)."""
        return self.game.transcript() if len(self.game.moves) == self.game.placed else self.game.state()

    def write_record(self) -> None:
        """Rewrite the recording, when there is one, with the game as it stands; a failure
        is kept in :attr:`record_error` (never raised), to be told once and tried again
        (set: the file on disk misses something now)."""
        if self.record_path is None:
            return
        try:
            self._write_recording(self._kept_on_top(self.record_path, self.text()))
        except OSError as exc:
            self.record_error = exc

    def write_copy(self) -> str:
        """Write the game (:meth:`text`) to a new file in the temporary folder, for a
        recording that could not be written.

        :returns: the copy's path.
        :raises OSError: when it cannot be written either.
        """
        fd, path = tempfile.mkstemp(prefix="foursquare-", suffix=".yaml")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
                out.write(self.text())
                out.flush()
                os.fsync(out.fileno())
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(path)
            raise
        return path

    def hint(self, budget: float = 1.0) -> list[Estimate]:
        """The bots' estimates for the next card (best first): each has ``.cell``,
        ``.win_chance`` and ``.expected_score``; counted in the history."""
        from ..bots import recommend
        from ..engine.view import PlayerView

        self.hints_asked += 1
        if self.autosave and self.history is not None:
            self.history.update(self.hints_asked)  # a game already in the history keeps the count
        return recommend(PlayerView.of(self.game), budget=budget)
