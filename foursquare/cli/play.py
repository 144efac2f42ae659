"""``foursquare play``: play a game at the prompt, or from a move script on stdin.

At a terminal (or with ``--interactive``) the grid is drawn after every move and
the prompt takes a move (``d4``, ``7H d4``) or a command (``help`` lists them).
When stdin is a pipe or a file, the same lines are read without prompts; the
first bad line ends the run with ``<stdin>:LINE: reason`` and status 1.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import os
import random
import re
import signal
import sys
import textwrap
from collections.abc import Iterator
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import click

from ..app.datafolder import history_recorder, words_setting
from ..app.deals import RANDOM_DEALS, Pick, daily_comparison, daily_pick, winnable_pick
from ..app.files import (
    LockedFile,
    claim,
    files_read,
    is_standard_stream,
    os_error_words,
    refuse_output_over_input,
    stdin_file,
)
from ..app.games import GameSpec
from ..app.session import Session, read_entry, same_file, start_again, writable_target
from ..engine.game import Game
from ..engine.rules import PRESETS, STANDARD, Rules
from ..errors import FormatError, FoursquareError, argument_name, shown_name
from ..formats.commands import FILE_COMMANDS, GAME_COMMANDS, STATE_FULL, STOP_COMMANDS, TABLE, CommandKind, PromptCommand
from ..formats.inputs import STDIN, InputFile, read_source
from ..formats.movescript import Move
from . import SHORT_HELP
from .boundary import Command, command_boundary, error_text, fail
from .options import PATH, exclusive, game_number_option, game_of_options_file, game_options, option_needs
from .render import COMMAND_LEAD, card_text, cards_text, closing_width, fit, fit_commands, outcome_text
from .signals import Terminated, signals_deferred
from .style import Look, counted
from .words import (
    asked_words,
    help_words,
    legal_words,
    look_words,
    move_words,
    rank_words,
    spoken,
    start_words,
    took_back_words,
)

if TYPE_CHECKING:
    from ..history.recorder import GameRecorder


def warn(text: str, look: Look) -> None:
    """Say ``text`` on stderr as the prompt says its errors: at a terminal (``look``
    with a width) each line broken to the terminal's width between words
    (:func:`~foursquare.cli.render.fit`) and in the colour of errors; through a
    pipe as it is."""
    look.echo("\n".join(look.style(part, "error") for line in text.split("\n") for part in fit(line, look.width)), err=True)


def start_history(game: Game, interactive: bool, wanted: bool | None, look: Look) -> GameRecorder | None:
    """The recorder of ``game`` in the history (:func:`foursquare.app.datafolder.history_recorder`);
    why the game is not recorded, if it is not, said on stderr now (:func:`warn`)."""
    recorder, refused = history_recorder(game, interactive, wanted)
    if refused is not None:
        warn(f"{refused}. This game is not recorded in the history.", look)
    return recorder


def end_history(session: Session, look: Look) -> None:
    """The game written in the history at the end of the session (however it ends);
    a warning on stderr when the history does not hold it (:func:`warn`)."""
    with contextlib.suppress(OSError, ValueError):  # SIGHUP: the terminal may be gone
        error = session.end()
        if error is not None:
            from ..history.store import error_words

            assert session.history is not None
            warn(f"{shown_name(session.history.path)}: the game is NOT in the history as it stands: {error_words(error)}.", look)


@click.command(cls=Command, short_help=SHORT_HELP["play"])
@game_options(deck_stdin=False, game_number=False)
@click.option("--resume", "resume_path", metavar="FILE", type=PATH, help="Continue the game of a state or transcript file.")
@game_number_option
@click.option(
    "--record",
    metavar="FILE",
    type=PATH,
    help="Keep the transcript in FILE (at the prompt: complete after every move; Ctrl-C loses nothing).",
)
@click.option("--force", is_flag=True, help="Let --record overwrite an existing non-empty file.")
@click.option("--ascii", "ascii_only", is_flag=True, help="Plain ASCII: no colour, no suit symbols (FOURSQUARE_ASCII=1 too).")
@click.option("--reveal", is_flag=True, help="Show face-down cards as a memory aid (toggle with 'reveal').")
@click.option(
    "--words/--grid",
    default=None,
    help="Say the game in sentences, for a screen reader, or draw the grid; kept for the games after at the prompt.",
)
@click.option("--interactive", is_flag=True, default=None, help="Prompt for moves even when stdin is not a terminal.")
@click.option("--script", is_flag=True, default=None, help="Read a move script even at a terminal.")
@click.option("-v", "--verbose", is_flag=True, help="Script mode: draw the grid (or, with --words, say the line) after every move.")
@click.option("--winnable", is_flag=True, help="A random deal that the solver proves winnable.")
@click.option(
    "--daily", is_flag=True, help="Today's deal (UTC), the same for everyone; at the end, the solver's best score for it."
)
@click.option(
    "--history/--no-history",
    "history",
    default=None,
    help="Keep the game in the history of 'foursquare stats' (default: at the prompt, not for a piped script).",
)
@command_boundary
def play(**given: Any) -> None:
    """Play a game: at the prompt, or from a move script piped to stdin.

    The game comes from --deal N, --deck FILE or --resume FILE; with none, a
    random deal is chosen and its number printed.  A move is a cell (d4), or
    the card you expect and a cell (7H d4).  Type 'help' at the prompt for its
    commands (moves, undo, redo, show, reveal, hint, save, state, help, again, new, quit).
    """
    options = SimpleNamespace(**given)  # the options as Click reads them (their meaning: foursquare play --help)
    # the usage errors (status 2) of options that cannot go together, before anything is read
    resume_path, record = options.resume_path, options.record
    exclusive(  # a deal chosen for the player (--winnable, --daily): no other game given, not even --resume
        deal=options.deal, deck=options.deck_path, resume=resume_path if options.winnable or options.daily else None,
        winnable=options.winnable, daily=options.daily,
    )
    exclusive(interactive=options.interactive, script=options.script)
    # -v draws a script's moves; the prompt always draws
    exclusive(interactive=options.interactive, verbose=options.verbose)
    # an input option that names standard input, where the moves are read: "-", or any other
    # name of it (/dev/stdin, /dev/fd/0, the file stdin is redirected from): it would swallow the moves
    rules_file = None if options.rules_spec in PRESETS else options.rules_spec  # (a preset is no file)
    for option, path in {"deck": options.deck_path, "rules": rules_file, "resume": resume_path}.items():
        if path is not None and (path == "-" or is_standard_stream(path, 0)):
            said = "play reads its moves from stdin" if path == "-" else f"{shown_name(path)} is standard input, where play reads its moves"
            raise click.BadParameter(f"{said}; give a file name", param_hint=f"'--{option}'")
    if record == "-":
        raise click.BadParameter("the recording is written to a file; give a file name", param_hint="'--record'")
    if record is not None and is_standard_stream(record, 1):  # /dev/stdout, or F while stdout goes to F
        raise click.BadParameter(
            f"{shown_name(record)} is standard output, where the game is shown; the recording is written to a file"
            " of its own: give another name",
            param_hint="'--record'",
        )
    option_needs("--force", options.force, "--record", record)
    # --resume F --record F continues a game in place; any other input is never written over
    # (a move script redirected from the file itself, < F, is an input too)
    refuse_output_over_input(
        "--record", record, {"--deck": options.deck_path, "--rules": options.rules_spec, "stdin": stdin_file()}
    )
    # no file written, by --record or at the prompt (save! too), is one the game reads
    with files_read({"--deck": options.deck_path, "--rules": rules_file}, stdin="the move script read from stdin"):
        spec = GameSpec.read(options.deal, options.deck_path, options.rules_spec)
        held = check_record_target(record, resume_path, options.force)
        try:
            pick = daily_pick() if options.daily else winnable_pick(spec.rules) if options.winnable else None
            _play(held, spec if pick is None else spec.dealt(pick.deal), options, pick)
        finally:
            if held is not None:
                held.release()


def echo_daily_comparison(game: Game, pick: Pick | None, width: int | None, *, terminal: bool) -> None:
    """Print :func:`~foursquare.app.deals.daily_comparison` for a daily game that is over,
    its lines broken to fit ``width``; at a terminal, say first that the solver is at work."""
    if pick is None or pick.day is None or not game.is_over or game.deal != pick.deal:
        return
    if terminal:
        click.echo("Working out the solver's best score...")
    line = daily_comparison(game, pick)
    if line is not None:
        click.echo("\n".join(fit(line, width)))


def _play(held: LockedFile | None, spec: GameSpec, options: SimpleNamespace, pick: Pick | None) -> None:
    """The game of :func:`play` once its recording, if any, is claimed (``held``);
    ``pick``: the deal chosen for the player (``--winnable``, ``--daily``), else ``None``."""
    # the game to play: the one --resume names, or a new one of the deal or the deck, or of a deal chosen at random
    resume_path, record = options.resume_path, options.record
    if resume_path is None and options.game_number is not None:
        raise click.UsageError("--game picks a game of the --resume transcript; give --resume FILE")
    started = (
        spec.start() if resume_path is None
        else game_of_options_file(resume_path, spec, game_number=options.game_number, empty_ok=False)
    )
    game = random_game(spec.rules or STANDARD) if started is None else started
    interactive = False if options.script else options.interactive or sys.stdin.isatty()
    words = words_setting(options.words) if interactive else bool(options.words)  # (a script's --words: that run's alone)
    look = dataclasses.replace(Look.for_stream(ascii=options.ascii_only or words), words=words)
    session = Session(  # the file resumed may be written over like the recording, unless it holds other games too
        game, record=record, autosave=interactive, recording=held,
        resume=resume_path if resume_path is not None and _games_held(resume_path) <= 1 else None,
        history=start_history(game, interactive, options.history, look), resumed_from=resume_path,
    )
    session.reveal = options.reveal
    # the --rules option that plays the game's rule set again (none for the standard rules)
    rules = None if game.rules == STANDARD else game.rules.name or (argument_name(spec.rules_spec) if spec.rules_spec else None)
    options.rules_again = f" --rules {rules}" if rules else ""  # (the same for the games after)
    if started is None or pick is not None:
        say_chosen(game, pick.words if pick is not None else "chosen at random", options.rules_again, look)
    prompt = Prompt(session, look, options, pick)  # (a script plays its one game: prompt.session stays session)
    try:
        if interactive:
            prompt.run()
        else:
            run_script(session, look, options)
    finally:
        end_history(prompt.session, look)
    echo_daily_comparison(prompt.session.game, pick, look.width, terminal=interactive)
    if prompt.session.record_error is not None or prompt.record_lost:
        sys.exit(1)  # the recording misses moves: said with the summary (record_lost)


def say_chosen(game: Game, words: str, rules: str, look: Look) -> None:
    """The line that names a deal chosen for the player and how to play it again."""
    click.echo("\n".join(fit(f"Deal {game.deal} ({words}; play it again with --deal {game.deal}{rules})", look.width)))


def random_game(rules: Rules) -> Game:
    """A new game of a deal chosen at random, as ``play`` with no deal picks one."""
    return Game.from_deal(random.SystemRandom().randrange(RANDOM_DEALS), rules)


def check_record_target(record: str | None, resume: str | None, force: bool) -> LockedFile | None:
    """Claim, before the game starts, the ``--record`` file: locked for the session
    (:func:`~foursquare.app.files.claim`); a new file is created atomically by the
    session's first write, with its first document (never left empty by a kill).  Refuse a
    path that is not a regular file (a directory, a device, a FIFO), a read-only
    file, a file another session writes, or one that holds something already,
    unless it is the file being resumed or ``--force`` is given.

    :returns: the claimed file (``None`` without ``--record``): the caller releases it.
    :raises OSError: naming the path when it is not a regular file, is read-only,
        is in use or its folder does not exist (status 1).
    """
    if record is None:
        return None
    if not os.path.isdir(os.path.dirname(writable_target(record))):  # (the real file's folder: links followed)
        raise FileNotFoundError(errno.ENOENT, "no such folder to write the recording in", record)
    held = claim(record, whole=True)  # opened and locked (a new file: written whole at the start): one writer
    try:  # what it holds, checked under the lock (no window): the game resumed, or --force
        if not force and held.size() > 0:
            held_games = _games_held(resume) if resume is not None and same_file(held.real, resume) else None
            if held_games is None:
                fail(
                    f"{shown_name(record)}: the file exists and is not empty; give --force to overwrite it"
                    f" (or --resume {shown_name(record)} --record {shown_name(record)} to continue its game)"
                )
            if held_games > 1:
                fail(
                    f"{shown_name(record)}: the file holds {held_games} games and the recording would keep only the one"
                    " resumed; record to another file, or give --force to replace them all"
                )
    except BaseException:
        held.release()
        raise
    return held


def _games_held(path: str) -> int:
    """How many YAML documents (games) a transcript file holds (0 when unreadable: the
    resume itself then reports the file)."""
    from ..formats.loading import games_held

    with contextlib.suppress(OSError, UnicodeDecodeError, FoursquareError):
        return games_held(read_source(path)[0])
    return 0


def closing(session: Session, options: SimpleNamespace, look: Look) -> None:
    """The end of a session: the recording tried once more when it is behind; the
    summary: the result (or how far the game got), the score, how to replay (without the
    lines that point to a recording that misses moves), fitted to the terminal's width
    (:func:`~foursquare.cli.render.closing_width`): a command to copy that does not fit
    beside its label goes on a line of its own, whole; and, when the file still misses
    moves, a plain statement of it on stderr with a copy of the game in the temporary
    folder (the caller exits 1).

    :param options: play's options: ``deck_path`` and ``rules_again``, the ``--rules`` option
        that plays the game's rule set again (``""`` for the standard rules)."""
    if session.record_error is not None:
        session.write_record()
    game, behind, record = session.game, session.record_error is not None, session.record_path
    lines = (
        [outcome_text(game).capitalize() + "."] if game.is_over  # (its words are lower case)
        else [f"Stopped after {counted(game.placed, 'card')} placed.", f"{game.stock_count} in the stock, {game.face_down} face down."]
    )
    # the deal and the commands that replay or resume the game
    if game.deal is not None:
        lines.append(f"Deal {game.deal}. Play it again: foursquare play --deal {game.deal}{options.rules_again}")
    elif options.deck_path is not None:
        lines.append(f"Play it again: foursquare play --deck {argument_name(options.deck_path)}{options.rules_again}")
    # not to a device, a FIFO or another file that is not regular (/dev/null): it cannot be replayed
    if record is not None and not behind and (os.path.isfile(record) or not os.path.exists(record)):
        quoted = argument_name(record)
        lines.append(
            f"The {'transcript' if len(game.moves) == game.placed else 'state'} is in {shown_name(record)}: foursquare replay {quoted}"
        )
        if not game.is_over:
            lines.append(f"Continue it: foursquare play --resume {quoted} --record {quoted}")
    shown = (  # in words, the closing lines without colons
        [spoken(line) for line in lines] if look.words
        else [part for line in lines for part in fit_commands(line, closing_width(look.width))]
    )
    click.echo("\n".join(shown))
    if behind:
        record_lost(session, look.width)


def record_lost(session: Session, width: int | None = None) -> None:
    """Say on stderr that the recording is not complete, how far it is behind, and
    where a copy of the game went (or that none could be written); for a game not
    over, the ``Continue it`` line resumes and records the copy (never the file
    behind: docs/guide/playing.md); the lines that name a command fitted as :func:`closing` fits them."""
    assert session.record_error is not None and session.record_path is not None
    name = shown_name(session.record_path)
    lines = [
        f"{name}: the recording is NOT complete: {os_error_words(session.record_error)}; {missing_text(session)}."
    ]
    try:
        quoted = argument_name(copy := session.write_copy())
        lines.append(f"The whole game is in {shown_name(copy)} instead: foursquare replay {quoted}")
        if not session.game.is_over:
            lines.append(f"Continue it: foursquare play --resume {quoted} --record {quoted}")
    except OSError as exc:  # (the copy: writing it is all that raises here)
        lines.append(f"No copy could be written either ({os_error_words(exc)}): the moves missing from {name} are lost.")
    width = closing_width(width)  # the lines naming a command as the summary's; the error as it is
    click.echo("\n".join(part for line in lines for part in (fit_commands(line, width) if COMMAND_LEAD in line else [line])), err=True)


def missing_text(session: Session) -> str:
    """How far the recording is behind, in words: ``the file misses 1 of the game's 25 moves``."""
    have, want = session.file_moves, len(session.game.moves)
    return (
        f"the file misses {want - have} of the game's {want} move{'s' if want != 1 else ''}" if have < want
        else f"the file does not hold the last change (it has {have} moves, the game {want})"
    )


def help_text(width: int | None = None) -> str:
    """The list of commands at the prompt; on a terminal of ``width`` columns too
    narrow for a command and its help on one line, each help goes under its
    command, indented, broken between words."""
    named = {f"{c.usage} ({', '.join(c.aliases)})" if c.aliases else c.usage: c.help for c in TABLE if c.usage is not None}
    column = max(len(name) for name in named)
    lines = ["A move: a cell like d4, or the card and the cell like 7H d4. Commands:"]
    for name, text in named.items():
        line = f"  {name:<{column}}  {text}"
        lines += [line] if width is None or len(line) <= width else [
            f"  {name}", *textwrap.wrap(text, max(width - 6, 20), initial_indent=" " * 6, subsequent_indent=" " * 6)
        ]
    return "\n".join(lines)


def hint_text(session: Session, words: bool = False) -> str:
    """The bots' view of the best cells, or why there is none (``words``: in sentences)."""
    if session.game.is_over:
        return "No hint: the game is over."
    if session.game.next_card is None:
        return "No hint: the next card is unknown (the deck names no more cards); name it in your move, like 7H d4."
    try:
        estimates = session.hint()
    except Exception as exc:  # a bot is a plug-in: its failure must not end the game
        return f"The hint failed: {type(exc).__name__}: {exc}"
    from ..bots import DEFAULT
    from .hint import shown_hint  # the one wording of a hint, as `foursquare hint` says it

    shown = shown_hint(estimates, DEFAULT)
    head, row = ("Hint of the {} bot, best first.", "{}, {}.") if words else ("Hint ({} bot, best first):", "  {}: {}")
    note = [] if shown.note is None else [spoken(shown.note) if words else shown.note]
    return "\n".join([head.format(DEFAULT), *(row.format(cells, said) for cells, said in shown.lines), *note])


class Prompt:
    """The interactive loop: draw, prompt, act, until the end or ``quit``."""

    def __init__(self, session: Session, look: Look, options: SimpleNamespace, pick: Pick | None) -> None:
        self.session = session
        self.look = look
        #: play's options and the deal chosen for the player (``--winnable``, ``--daily``): how the
        #: games after ``again`` or ``new`` start
        self.options, self.pick = options, pick
        #: a game of this prompt left its recording incomplete (said then; the exit status is 1)
        self.record_lost = False
        self.piped: Iterator[tuple[int, str]] | None = None  # the lines of a piped stdin
        #: what the player was told cannot be written now: ``recording``, ``history``
        self.told: set[str] = set()
        self.warned = 0  # the moves taken back the recording drops, as last said at quit
        #: SIGINT's handler as the prompt starts, put back after a Ctrl-C that cancels
        self.on_ctrl_c = signal.getsignal(signal.SIGINT)

    @property
    def game(self) -> Game:  # the game played now (the completer reads it too: .completion)
        return self.session.game

    def say_error(self, message: str) -> None:
        """Print an error on stderr, its lines broken to fit the terminal (:func:`warn`)."""
        warn(spoken(message) if self.look.words else message, self.look)

    def commands_left(self) -> list[str]:
        """At the end of a game: the commands of the table (formats/commands.py) that
        still change or end something, in its order: ``undo``/``redo`` when they
        have a move to act on (at the end of a game there is never one to redo:
        it is the last position of its line), then ``again`` (when the start of the game
        is known) and ``new`` (they start the next game), and ``quit``."""
        return [c.name for c in TABLE if c.kind in (CommandKind.GAME, CommandKind.STOP) and self.session.can(c.name)]

    def tell_recording(self) -> None:
        """Say, once, that the recording or the history could not be written (tried again
        after every change), or is written again."""
        session, history = self.session, self.session.history
        if session.record_path is not None and (session.record_error is not None) != ("recording" in self.told):
            self.told ^= {"recording"}
            self.say_error(f"{shown_name(session.record_path)}: " + (
                "the recording is written again; it holds every move." if session.record_error is None
                else f"the recording could not be written: {os_error_words(session.record_error)}; {missing_text(session)}."
                " Play on: it is tried again after every move and at the end ('save FILE' writes a copy elsewhere)."
            ))
        if history is not None and history.active and (history.error is not None) != ("history" in self.told):
            from ..history.store import error_words

            self.told ^= {"history"}
            self.say_error(f"{shown_name(history.path)}: " + (
                "the history holds the game again." if history.error is None
                else f"the history cannot take the game now: {error_words(history.error)}."
                " Play on: it is tried again after every move and at the end."
            ))

    def prompt_text(self) -> str:
        nxt = self.game.next_card
        if self.game.is_over:
            return f"game over ({', '.join(self.commands_left())})> "
        if nxt is None:
            return "unknown> " if self.look.words else "??> "
        return f"{rank_words(nxt) if self.look.words else card_text(nxt, symbols=self.look.symbols)}> "

    def run(self) -> None:
        """Prompt until ``quit`` or end of input (Ctrl-C at a terminal cancels the line or
        the hint; elsewhere it stops, status 130). A recording is complete after every
        move, so stopping loses nothing.  At a terminal, Ctrl-C cancels the line being
        typed, the hint being thought or any command under way, and prompts again (as
        Python's prompt and bash do); Ctrl-D or ``quit`` leaves."""
        self.greet()
        from .completion import prompt_editing

        with prompt_editing(self, words=self.look.words):  # at a terminal: Tab completion, the line history
            try:
                while True:
                    try:  # (the errors of reading the line: handle says its own)
                        if not self.handle(self.read_line()):
                            break
                    except KeyboardInterrupt:  # the line typed, or a command under way: what it did so far stands
                        self.cancelled()
                    except EOFError:
                        click.echo()
                        self.say_dropped("")
                        break
                    except UnicodeDecodeError:
                        self.say_error("the line is not UTF-8 text")
                    except FormatError as exc:  # a pipe past a limit: said as in a script, status 1
                        click.echo()
                        self.say_error(error_text(exc))
                        closing(self.session, self.options, self.look)
                        sys.exit(1)
            except (KeyboardInterrupt, Terminated):
                # Ctrl-C or SIGTERM: end the prompt's line, then the summary (it holds
                # commands to copy); the boundary says Interrupted. or Terminated.
                with contextlib.suppress(OSError, ValueError):  # SIGHUP: the terminal may be gone
                    click.echo()
                    self.say_dropped("")
                    closing(self.session, self.options, self.look)
                raise
            closing(self.session, self.options, self.look)

    def greet(self) -> None:
        """The opening lines of a game (its deal, its rules, whether face-down cards are
        shown) and its grid."""
        deal = "" if self.game.deal is None else f", deal {self.game.deal}"
        shown = "look names face-down cards" if self.look.words else "Face-down cards are shown in brackets"
        shown = f"\n{shown} (reveal hides them)." if self.session.reveal else ""
        # then the grid; in words, the start (a game resumed: its next card in full, look says the piles)
        start = f"\n{start_words(self.game)}" if self.look.words else ""
        say_and_show(
            self.session, self.look, f"Foursquare{deal} ({self.game.rules.label} rules).{shown}\nType help for the commands.{start}",
            not self.look.words,
        )
        if self.game.is_over:
            self.announce_end()

    def cancelled(self) -> None:
        """A Ctrl-C that cancels what is under way (at a terminal; elsewhere it ends the
        game, as in a script): the line ended, the handler of the next Ctrl-C put back."""
        if not sys.stdin.isatty():
            raise KeyboardInterrupt
        if self.on_ctrl_c is not None:  # (the program's handler ignores a second one)
            signal.signal(signal.SIGINT, self.on_ctrl_c)
        click.echo()

    def say_dropped(self, then: str) -> bool:
        """Say which moves taken back the recording drops, unless said already; whether said."""
        count = len(self.session.taken_back) if self.session.record_path is not None else 0
        if not count or count == self.warned:
            return False
        self.warned = count
        assert self.session.record_path is not None
        self.say_error(
            f"{shown_name(self.session.record_path)}: the recording keeps the game as it stands, without the"
            f" {counted(count, 'move')} taken back{then.format(them='it' if count == 1 else 'them')}."
        )
        return True

    def read_line(self) -> str:
        """The next line typed, after the prompt: through :func:`input` at a terminal (line
        editing); from a pipe, the next line that holds something (:func:`stdin_lines`).

        :raises EOFError: at the end of the input.
        :raises FormatError: from a pipe, at a fault of the input itself (as in a script).
        """
        prompt = self.prompt_text()
        if sys.stdin.isatty():
            return input(prompt)
        click.echo(prompt, nl=False)
        self.piped = self.piped or stdin_lines()
        try:
            return next(self.piped)[1]
        except StopIteration:
            raise EOFError from None

    def announce_end(self) -> None:
        """What the player may do now the game is over (the drawing above says how it ended)."""
        left = self.commands_left()
        self.look.echo("\n".join(
            self.look.style(line, "title")
            for line in fit(f"Type {', '.join(left[:-1])} or quit." if len(left) > 1 else "Type quit to stop.", self.look.width)
        ))

    def handle(self, line: str) -> bool:
        """Act on one line, a move or a command; ``False`` to stop (``quit``)."""
        asked = asked_words(self.game, line, self.session.reveal) if self.look.words else None
        if asked is not None:
            say_and_show(self.session, self.look, asked)
            return True
        try:
            entry = read_entry(line)
        except FoursquareError as exc:  # a line that is no move or command: what to type
            self.say_error(f"{error_text(exc)}; type help for the commands")
            return True
        if entry is None:
            return True
        move = isinstance(entry, Move)
        name, arg = ("", None) if isinstance(entry, Move) else entry
        if name in STOP_COMMANDS:  # a second quit (again, new) goes on without the moves taken back
            leave = "quit again to leave" if name == "quit" else f"{name} once more to go on"
            if self.say_dropped(f"; type redo to play {{them}} again, or {leave} without {{them}}"):
                return True
            return name != "quit" and self.start_next(name)
        was_over = self.game.is_over
        try:
            try:  # Ctrl-C stops a hint
                text, drawn = command_text(self.session, entry, self.look)
            except KeyboardInterrupt:
                if name != "hint":
                    raise
                self.cancelled()
                text, drawn = "Hint stopped.", False
            say_and_show(self.session, self.look, text, drawn)
        except FoursquareError as exc:  # cards named as the prompt shows them (3♣>)
            self.say_error(cards_text(f"{entry}: {exc}", symbols=self.look.symbols) if move else error_text(exc))
        except OSError as exc:
            self.say_error(error_text(exc if arg is None else OSError(exc.errno, exc.strerror, arg)))  # the name typed
        self.tell_recording()
        if move and self.game.is_over and not was_over:
            self.announce_end()
        return True

    def start_next(self, name: str) -> bool:
        """``again`` or ``new``: the summary of the game played (its history row ended, a
        recording kept as it ended), then the next game, started as the command line started
        the first (its rules, ``--reveal``, ``--history``, ``--winnable``), with a history row
        of its own and no recording (docs/guide/playing.md)."""
        done, options, look = self.session, self.options, self.look
        if not done.can(name):
            self.say_error("again: the start of this game is not known (resumed from a saved state); type new or quit")
            return True
        closing(done, options, look)
        click.echo()
        self.record_lost |= done.record_error is not None
        end_history(done, look)
        echo_daily_comparison(done.game, self.pick, look.width, terminal=True)
        game = start_again(done.game) if name == "again" else None
        if game is None:
            chosen = winnable_pick(done.game.rules) if options.winnable else None
            game = random_game(done.game.rules) if chosen is None else Game.from_deal(chosen.deal, done.game.rules)
            say_chosen(game, "chosen at random" if chosen is None else chosen.words, options.rules_again, look)
        self.session = Session(game, history=start_history(game, True, options.history, look))
        self.session.reveal = options.reveal
        self.told, self.warned = set(), 0
        if done.record_path is not None:
            say_and_show(
                self.session, look,
                f"{shown_name(done.record_path)} keeps the game just played. This game is not recorded (save FILE writes it).",
            )
        self.greet()
        return True


def command_text(session: Session, entry: Move | PromptCommand, look: Look) -> tuple[str, bool]:
    """Carry out a move (the game drawn after it) or a command that does not end the game
    (``undo``, ``redo``, ``reveal``, ``show``, ``moves``, ``help``, ``hint``; ``save`` and
    ``state``, with their file argument): what it says, and whether the grid is drawn after it.

    :raises FoursquareError: for an illegal move; with OSError, for a file that may not or
        cannot be written."""
    if isinstance(entry, Move):
        session.play(entry)
        return "", True
    name, arg = entry
    if name.rstrip("!") in FILE_COMMANDS:  # state, state --full: printed (save requires a file: the parser)
        if arg is None or arg == STATE_FULL:
            click.echo(session.game.state(player_view=arg is None), nl=False)
            return "", False
        # save writes the transcript, or the state when the game was resumed from one (a transcript needs every move)
        game = session.game
        kind = "transcript" if name.startswith("save") and len(game.moves) == game.placed else "state"
        text = game.transcript() if kind == "transcript" else game.state()
        session.write_file(arg, text, force=name.endswith("!"), command=name.rstrip("!"))  # ! forms: over another file too
        return f"Saved the {kind} to {shown_name(arg)}.", False
    if name in GAME_COMMANDS:
        placement = session.undo() if name == "undo" else session.redo()
        if look.words:
            return took_back_words(session.game, placement) if name == "undo" else move_words(session.game), False
        flips = f"flipped {' '.join(map(str, placement.flipped))}" if placement.flipped else "nothing flipped"
        verb = "Took back" if name == "undo" else "Again:"  # 7S to d4: flipped c4 e4
        return f"{verb} {card_text(placement.card, symbols=look.symbols)} to {placement.cell}: {flips}", True
    if name == "reveal":
        session.reveal = not session.reveal
        if look.words:
            return ("look names face-down cards." if session.reveal else "look hides face-down cards."), False
        return ("Face-down cards are shown in brackets." if session.reveal else "Face-down cards are hidden."), True
    if name == "moves" and look.words:
        return legal_words(session.game), False
    if name == "moves":  # the legal cells, piles and empty cells apart
        cells, grid = session.game.legal_cells(), session.game.grid
        kinds = (("empty cells", [c for c in cells if c not in grid]), ("piles", [c for c in cells if c in grid]))
        said = "; ".join(f"{kind} {' '.join(map(str, some))}" for kind, some in kinds if some)
        return (f"The card may go to: {said}" if cells else "No move: the game is over."), False
    if name == "help":
        return help_words() if look.words else help_text(look.width), False
    if name == "hint":
        return hint_text(session, look.words), False
    return (look_words(session.game, session.reveal), False) if look.words else ("", True)  # show


def say_and_show(session: Session, look: Look, text: str, drawn: bool = False) -> None:
    """Print ``text`` (when there is one), its lines fitted to the terminal, then, when ``drawn``,
    the grid and a blank line (in words: the last move, or the start)."""
    if text:
        click.echo("\n".join(part for line in text.split("\n") for part in fit(line, look.width)))
    if drawn:
        look.echo(move_words(session.game) if look.words else look.draw(session.game, reveal=session.reveal) + "\n")


def stdin_lines() -> Iterator[tuple[int, str]]:
    """The lines of standard input that hold a move or a command, each with its number
    (from 1), read as every input is (:class:`~foursquare.formats.inputs.InputFile`): a
    block at a time as it comes, its bytes counted against
    :data:`~foursquare.formats.inputs.MAX_INPUT_BYTES` before its lines are acted on, a
    byte-order mark and CRLF line ends accepted.

    :raises FormatError: ``<stdin>:LINE: ...`` at the first fault of the input itself
        (not UTF-8, binary, a line too long, too large), worded as every reader words it,
        after the lines before it.
    """
    lines = 0  # line ends before the block
    with InputFile("-") as source:
        for block in source:
            at, number = 0, lines + 1
            # a line that holds something besides blanks and a comment: the lines acted on
            # (the others are passed over at the regular expression's speed, however many)
            for match in re.finditer(r"^[^\S\n]*[^\s#].*", block, re.M):
                number += block.count("\n", at, match.start())
                at = match.start()
                yield number, match.group()
            lines += block.count("\n")


def run_script(session: Session, look: Look, options: SimpleNamespace) -> None:
    """Read a move script (and commands) from stdin without prompts.

    The first bad line ends the run: ``<stdin>:LINE: reason`` on stderr, status 1.
    A recording is written once, when the run ends, however it ends (the end of
    the input, an error, Ctrl-C, SIGTERM): it keeps every move made.  At the
    end, the result.
    """
    ended: BaseException | None = None  # what ended the run early: Ctrl-C, SIGTERM, a bad line (SystemExit)
    try:
        try:
            _script(session, look, options.verbose)
        except FormatError as exc:  # a fault of the input itself: said as a bad line's
            fail(error_text(exc))
    except BaseException as exc:  # (not sys.exc_info() in the finally: it also sees an error an outer handler handles)
        ended = exc
        raise
    finally:
        # Written whatever happens.  A signal that came while stdin was being read
        # may strike at the first call here, before any handler is held back:
        # then write again, with the signals held back, and act on it after.
        stop: BaseException | None = None
        while True:
            try:
                with signals_deferred():
                    session.write_record()
                break
            except (SystemExit, KeyboardInterrupt) as exc:
                stop = stop or exc
        if isinstance(ended, (KeyboardInterrupt, Terminated)) or isinstance(stop, (KeyboardInterrupt, Terminated)):
            # as at the prompt: how far the game got, then the boundary's Interrupted./Terminated.
            with contextlib.suppress(Exception):
                closing(session, options, look)
        elif isinstance(ended, SystemExit) and session.record_error is not None:  # a bad line: its error, then the recording's
            with contextlib.suppress(Exception):
                record_lost(session, look.width)
        if stop is not None:
            raise stop
    closing(session, options, look)


def _script(session: Session, look: Look, verbose: bool) -> None:
    """Act on each line of the move script on stdin, until its end or ``quit``; the
    first bad line ends the run (``<stdin>:LINE: reason``, status 1), as does a fault
    of the input itself (:func:`stdin_lines`: a ``FormatError``)."""
    for number, line in stdin_lines():
        asked = asked_words(session.game, line, session.reveal) if look.words else None
        if asked is not None:
            say_and_show(session, look, asked, False)
            continue
        entry: Move | PromptCommand | None = None  # (none yet: a line that is no entry is said as it is)
        try:
            entry = read_entry(line)
            if entry is None:
                continue
            if isinstance(entry, PromptCommand) and entry.name in STOP_COMMANDS:
                break
            said = command_text(session, entry, look)
            # said and drawn as at the prompt, but quietly: a move, undo, redo and reveal only with -v; never what save and state saved
            name = "" if isinstance(entry, Move) else entry.name
            if name.rstrip("!") not in FILE_COMMANDS and (verbose or name not in ("", *GAME_COMMANDS, "reveal")):
                say_and_show(session, look, *said)
        except FoursquareError as exc:  # an illegal move: its cell named (a wrong card: the reason names the card)
            cell = f"{entry.cell}: " if isinstance(entry, Move) and "drawn" not in exc.facts else ""
            fail(f"{STDIN}:{number}: {cell}{exc}")
        except OSError as exc:  # save/state FILE that cannot be written: the line says which
            fail(f"{STDIN}:{number}: {error_text(exc)}")
