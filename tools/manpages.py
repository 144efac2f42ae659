"""The man pages, written from the Click commands (issue 42, item 14).

    python tools/manpages.py OUT_FOLDER     # foursquare.1 and foursquare-COMMAND.1
    man -l OUT_FOLDER/foursquare-play.1
    mandoc -T lint -W warning OUT_FOLDER/*.1    # the docs gate of .ci/run: nothing

Each page is a man(7) page with the usual sections: NAME (the command and a line that
says what it does: its short help), SYNOPSIS, DESCRIPTION (its help text), OPTIONS
(each option and its help, as ``--help`` prints them), COMMANDS (foursquare(1), and
the subcommands of ``history``), EXIT STATUS, ENVIRONMENT, FILES and SEE ALSO.  The
text is the program's own (the same as ``foursquare COMMAND --help``), so the pages
cannot drift from it; the sections every page shares are written here once.
"""

from __future__ import annotations

import datetime
import inspect
import os
import re
import sys
import textwrap
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from foursquare import __version__  # noqa: E402
from foursquare.cli import main as program  # noqa: E402

PROGRAM = "foursquare"
PROGRAM_NAME_LINE = "play and study Foursquare, Wil Su's one-player card game"

EXIT_STATUS = [
    ("0", "Success; for validate, every game is valid."),
    ("1", "The input is invalid (an illegal move, a failed claim, a bad file), or a failure:"
          " an output that cannot be written, a worker process that died."),
    ("2", "A usage error: an unknown or misspelt option, a bad value, options that do not go together."),
    ("130", "Interrupted (Ctrl-C)."),
    ("143", "Terminated (SIGTERM); a recording is still written."),
]  # fmt: skip

ENVIRONMENT = [
    ("FOURSQUARE_HOME", "The data folder, where the history of your games and the prompt's line history are kept."
     " A leading ~ is your home folder. When it is not set, the folder is $XDG_CONFIG_HOME/foursquare or"
     " ~/.config/foursquare (~/Library/Application Support/foursquare on macOS, %APPDATA%\\foursquare on Windows)."
     " Set but empty, it names no folder: an error (status 1); play says so and plays the game without keeping it."),
    ("NO_COLOR", "When set to anything but the empty string, nothing is drawn in colour at a terminal"
     " (as with TERM=dumb). The suit symbols stay; --ascii leaves them out too."),
    ("FOURSQUARE_ASCII", "When set to anything but the empty string or 0, every command draws in plain ASCII,"
     " as with --ascii: no colour, no suit symbols. Under a Chinese, Japanese or Korean locale (LC_ALL, LC_CTYPE"
     " or LANG) the suits are ASCII anyway: such terminals draw the suit symbols two columns wide."),
    ("FOURSQUARE_PURE_PYTHON", "When set to anything but the empty string or 0, the solver and the bots search in"
     " pure Python instead of the compiled core: the same results, only slower. foursquare --version says which"
     " core runs."),
]  # fmt: skip

FILES = [
    ("$FOURSQUARE_HOME/history.sqlite3", "The history of your games (an SQLite database): what stats and history read,"
     " and where play keeps each game played at the prompt."),
    ("$FOURSQUARE_HOME/prompt-history", "The lines typed at the prompt of play, kept between sessions"
     " (Up recalls them)."),
]  # fmt: skip


# ------------------------------------------------------------------ roff


def _escape(text: str) -> str:
    """Text for roff: backslashes and characters outside ASCII escaped."""
    text = text.replace("\\", "\\e")
    return "".join(ch if ord(ch) < 128 else f"\\[u{ord(ch):04X}]" for ch in text)


def _line(text: str) -> str:
    """One input line of text: escaped, and kept from reading as a request."""
    text = _escape(text)
    return "\\&" + text if text.startswith((".", "'")) else text


def _bold(text: str) -> str:
    return "\\fB" + _escape(text).replace("-", "\\-") + "\\fR"


def _italic(text: str) -> str:
    return "\\fI" + _escape(text) + "\\fR"


def _words(usage: str) -> str:
    """An option's or a synopsis's words: flags and command words bold, metavariables italic."""
    parts = re.split(r"(\s+|[\[\]|,/]|\.\.\.)", usage)
    out = []
    for part in parts:
        if not part:
            continue
        if part.startswith("-") or part.islower() and part.isalpha():
            out.append(_bold(part))
        elif re.fullmatch(r"[A-Z][A-Z0-9_]*", part):
            out.append(_italic(part))
        else:
            out.append(_escape(part))
    return "".join(out)


def _paragraphs(text: str) -> list[str]:
    """The help text as roff paragraphs: indented or \\b-marked blocks kept as typed."""
    out: list[str] = []
    for block in re.split(r"\n\s*\n", inspect.cleandoc(text).strip()):
        lines = block.splitlines()
        if lines[0].strip() == "\b":
            lines = lines[1:]
            out += [".PP", ".nf", *(_line(line) for line in lines), ".fi"]
        elif all(line.startswith((" ", "\t")) for line in lines):
            out += [".PP", ".RS 4", ".nf", *(_line(line.strip()) for line in lines), ".fi", ".RE"]
        else:
            out += [".PP", _line(" ".join(line.strip() for line in lines))]
    return out


def _name_line(command: click.Command) -> str:
    short = command.get_short_help_str(limit=200).rstrip(".")
    return short[0].lower() + short[1:]


def _synopsis(command: click.Command, ctx: click.Context, words: str) -> list[str]:
    return [".PP", _bold(words) + " " + _words(" ".join(command.collect_usage_pieces(ctx)))]


def _options(command: click.Command, ctx: click.Context) -> list[str]:
    out: list[str] = []
    for param in command.get_params(ctx):
        if not isinstance(param, click.Option):
            continue  # an argument is in the synopsis and the description
        record = param.get_help_record(ctx)
        if record is None:
            continue
        names, help_text = record
        out += [".TP", _words(names), _line(help_text or "")]
    return out


def _section(title: str, lines: list[str]) -> list[str]:
    return [f".SH {title}", *lines] if lines else []


def _shared(see_also: list[str]) -> list[str]:
    lines = _section("EXIT STATUS", [line for status, meaning in EXIT_STATUS for line in (".TP", _bold(status), _line(meaning))])
    lines += _section("ENVIRONMENT", [line for name, meaning in ENVIRONMENT for line in (".TP", _bold(name), _line(meaning))])
    lines += _section("FILES", [line for name, meaning in FILES for line in (".TP", _italic(name), _line(meaning))])
    refs = [f"{_bold(name)}(1)" for name in see_also]
    lines += _section("SEE ALSO", [",\n".join(refs)])
    return lines


def _tidy(lines: list[str]) -> str:
    """The page's text: no paragraph macro right after a heading, a new line for each
    sentence and text lines of at most 78 columns (man pages are read at 80)."""
    out: list[str] = []
    verbatim = False
    for line in lines:
        if line == ".PP" and out and out[-1].startswith((".SH", ".SS")):
            continue
        verbatim = line == ".nf" or verbatim and line != ".fi"
        if line.startswith(".") or verbatim:
            out.append(line)
            continue
        for sentence in re.split(r"(?<=[.;:?!])\s+(?=[A-Z\\])", line):
            for piece in textwrap.wrap(sentence, 78, break_long_words=False, break_on_hyphens=False):
                out.append("\\&" + piece if piece.startswith((".", "'")) else piece)
    return "\n".join(out) + "\n"


def _header(name: str, date: str) -> list[str]:
    return [f'.TH {name.upper()} 1 {date} "{PROGRAM} {__version__}" "User Commands"']


def _commands() -> tuple[click.Context, dict[str, click.Command]]:
    ctx = click.Context(program, info_name=PROGRAM)
    found = {name: program.get_command(ctx, name) for name in program.list_commands(ctx)}
    return ctx, {name: command for name, command in found.items() if command is not None and not command.hidden}


def pages(date: str) -> dict[str, str]:
    """Every man page: file name -> its text."""
    root, commands = _commands()
    out: dict[str, str] = {}
    names = [f"{PROGRAM}-{name}" for name in commands]
    lines = _header(PROGRAM, date)
    lines += _section("NAME", [f"{PROGRAM} \\- {_escape(PROGRAM_NAME_LINE)}"])
    lines += _section("SYNOPSIS", [".PP", f"{_bold(PROGRAM)} [{_bold('--version')}] {_italic('COMMAND')} [{_italic('ARGS')}]..."])
    description = _paragraphs(program.help or "")
    description += [".PP", _line(f"Each command has its own page: {PROGRAM}-COMMAND(1); {PROGRAM} COMMAND --help prints the same.")]
    lines += _section("DESCRIPTION", description)
    lines += _section("OPTIONS", _options(program, root))
    listed = []
    for name, command in commands.items():
        listed += [".TP", _bold(name), _line(_name_line(command) + "; see ") + f"{_bold(PROGRAM + '-' + name)}(1)."]
    lines += _section("COMMANDS", listed)
    lines += _shared(names)
    out[f"{PROGRAM}.1"] = _tidy(lines)
    for name, command in commands.items():
        ctx = click.Context(command, info_name=name, parent=root)
        words = f"{PROGRAM} {name}"
        lines = _header(f"{PROGRAM}-{name}", date)
        lines += _section("NAME", [f"{PROGRAM}-{name} \\- {_escape(_name_line(command))}"])
        synopsis = _synopsis(command, ctx, words)
        details: list[str] = []
        if isinstance(command, click.Group):
            for sub_name in command.list_commands(ctx):
                sub = command.get_command(ctx, sub_name)
                if sub is None or sub.hidden:
                    continue
                sub_ctx = click.Context(sub, info_name=sub_name, parent=ctx)
                synopsis += _synopsis(sub, sub_ctx, f"{words} {sub_name}")
                details += [f".SS {words} {sub_name}", *_paragraphs(sub.help or ""), *_options(sub, sub_ctx)]
        lines += _section("SYNOPSIS", synopsis)
        lines += _section("DESCRIPTION", _paragraphs(command.help or ""))
        lines += _section("OPTIONS", _options(command, ctx))
        lines += _section("COMMANDS", details)
        lines += _shared([PROGRAM] + [other for other in names if other != f"{PROGRAM}-{name}"])
        out[f"{PROGRAM}-{name}.1"] = _tidy(lines)
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python tools/manpages.py OUT_FOLDER", file=sys.stderr)
        return 2
    stamp = os.environ.get("SOURCE_DATE_EPOCH")
    when = datetime.datetime.fromtimestamp(int(stamp), datetime.UTC) if stamp else datetime.datetime.now(datetime.UTC)
    folder = Path(args[0])
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in pages(when.strftime("%Y-%m-%d")).items():
        (folder / name).write_text(text, encoding="utf-8")
    print(f"manpages: {len(list(folder.glob('*.1')))} pages in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
