"""The commands of the move-script syntax (FORMATS.md "Move scripts"): one table
for every reader, the script replayer, the prompt and its help.

Each :class:`CommandSpec` names a command, its argument, its line of help and
its :class:`CommandKind`: what replaying it from a file does.

    >>> COMMAND_NAMES[:3], spec("u").name, spec("save!").kind
    (('moves', 'undo', 'redo'), 'undo', <CommandKind.FORCED: 'forced'>)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple


class CommandKind(StrEnum):
    """What a command does when a script is replayed."""

    #: changes the game (``undo``, ``redo``)
    GAME = "game"
    #: ends the game and the reading of a script (``quit``; at the prompt ``again`` and
    #: ``new`` then start the next game)
    STOP = "stop"
    #: only shows or writes something: ignored when a script is replayed from a file
    DISPLAY = "display"
    #: the ``!`` form of a command that writes a file: writes even over a file that
    #: holds something else (a display command too)
    FORCED = "forced"


@dataclass(frozen=True)
class CommandSpec:
    """One command of the move-script syntax.

    :ivar name: its name, lower case (``save``, ``save!``).
    :ivar kind: see :class:`CommandKind`.
    :ivar argument: whether a file name must follow (``save FILE``: true), may follow
        (``state``, ``state FILE``, ``state --full``: false), or none is taken (``None``).
    :ivar usage: how help shows it (``save FILE``), or ``None`` for a form help
        shows with another (``save!``).
    :ivar help: its line of help (empty for such a form).
    :ivar aliases: other names typed for it (``q``, ``exit``).
    """

    name: str
    kind: CommandKind
    argument: bool | None = None
    usage: str | None = None
    help: str = ""
    aliases: tuple[str, ...] = ()


class PromptCommand(NamedTuple):
    """A command line of a move script or the prompt: its name (aliases resolved) and
    its argument (or ``None``)."""

    name: str
    argument: str | None = None


#: The one option of the prompt's ``state`` command: the state with its stock order.
STATE_FULL = "--full"

#: Every command, in the order help lists them; the ``!`` forms last.
TABLE: tuple[CommandSpec, ...] = (
    CommandSpec("moves", CommandKind.DISPLAY, usage="moves", help="list the cells where the card may go", aliases=("m",)),
    CommandSpec("undo", CommandKind.GAME, usage="undo", help="take back the last move (as often as you like)", aliases=("u",)),
    CommandSpec("redo", CommandKind.GAME, usage="redo", help="play again a move taken back", aliases=("r",)),
    CommandSpec("show", CommandKind.DISPLAY, usage="show", help="draw the grid again"),
    CommandSpec(
        "reveal", CommandKind.DISPLAY, usage="reveal", help="show or hide the face-down cards you placed (a memory aid)"
    ),
    CommandSpec("hint", CommandKind.DISPLAY, usage="hint", help="ask a bot which cell looks best"),
    CommandSpec(
        "save", CommandKind.DISPLAY, True, usage="save FILE",
        help="write the transcript to FILE, not over another file (save! FILE: over it too)",
    ),
    CommandSpec(
        "state", CommandKind.DISPLAY, False, usage="state [--full|FILE]",
        help="the state you see (YAML); --full: with the stock order; FILE: write it all"
        " (state! FILE: over another file too)",
    ),
    CommandSpec("help", CommandKind.DISPLAY, usage="help", help="this list", aliases=("?", "h")),
    CommandSpec("again", CommandKind.STOP, usage="again", help="end this game and play its deal again from the start"),
    CommandSpec("new", CommandKind.STOP, usage="new", help="end this game and play a new deal chosen at random"),
    CommandSpec("quit", CommandKind.STOP, usage="quit", help="stop (a recording stays complete)", aliases=("exit", "q")),
    CommandSpec("save!", CommandKind.FORCED, True),
    CommandSpec("state!", CommandKind.FORCED, True),
)

_BY_NAME: dict[str, CommandSpec] = {c.name: c for c in TABLE} | {a: c for c in TABLE for a in c.aliases}

#: The commands, besides moves, in the order help lists them (without the ``!`` forms).
COMMAND_NAMES: tuple[str, ...] = tuple(c.name for c in TABLE if c.kind is not CommandKind.FORCED)
#: Commands that change the game when a script is replayed.
GAME_COMMANDS = frozenset(c.name for c in TABLE if c.kind is CommandKind.GAME)
#: Commands that end the game and the reading of a script (at the prompt, ``again`` and
#: ``new`` then start the next game).
STOP_COMMANDS = frozenset(c.name for c in TABLE if c.kind is CommandKind.STOP)
#: The forms of ``save`` and ``state`` that write even over a file holding something else.
FORCED_COMMANDS: tuple[str, ...] = tuple(c.name for c in TABLE if c.kind is CommandKind.FORCED)
#: Commands that name a file (each has a ``!`` form).
FILE_COMMANDS = frozenset(c.name for c in TABLE if c.argument is not None and c.kind is not CommandKind.FORCED)


def spec(name: str) -> CommandSpec | None:
    """The command a word names (a name or an alias, any case), or ``None``."""
    return _BY_NAME.get(name.lower())
