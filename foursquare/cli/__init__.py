"""The ``foursquare`` command line (FORMATS.md): a thin Click layer over the engine and formats.

Each subcommand lives in its own module and is imported only when it runs,
so that ``foursquare play`` does not load the solver.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, NoReturn, cast

import click

from .. import __version__

#: Subcommand name -> its line in ``foursquare --help`` (the command's ``short_help``):
#: listed here so that the group's help imports no command module (nor the solver or
#: the bots behind them).  Each command is the function of its name in the module of its
#: name under foursquare.cli (``play`` is ``foursquare.cli.play.play``): add one line per command.
SHORT_HELP: dict[str, str] = {
    "analyze": "Judge each move of a recorded game with the solver.",
    "hint": "Recommend a cell for the next card of a game file.",
    "history": "List the games played; export or import them as transcripts.",
    "play": "Play a game at the prompt, or from a piped move script.",
    "replay": "Show a game step by step.",
    "rules": "List the rule presets, or explain a rule set.",
    "schema": "Print the JSON Schema of a transcript, a state or a rules file.",
    "simulate": "Play a bot over a range of deals and report its statistics.",
    "solve": "Find the best score of a deal with the stock order known.",
    "state": "Print the state YAML of a game.",
    "stats": "Statistics of the games played: won, scores, streaks, time.",
    "validate": "Check transcripts (for CI).",
}


class LazyGroup(click.Group):
    """A Click group whose subcommands (:data:`SHORT_HELP`) are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(SHORT_HELP)

    # Ctrl-C before a command's own handling starts (while the modules load, the
    # arguments are parsed or the command's module is imported) ends as it does
    # inside the command (FORMATS.md), not with a traceback or Click's "Aborted!"
    # and status 1.

    def main(self, *args: Any, **kwargs: Any) -> Any:
        try:
            # before Click parses anything: its usage errors, too, meet guarded streams
            from .streams import guard_stderr, guard_stdout

            guard_stdout()
            guard_stderr()
            from .shellcompletion import use_our_scripts

            use_our_scripts()  # bash's Tab completion keeps the presets beside the files
        except KeyboardInterrupt:
            _interrupted()
        try:
            return super().main(*args, **kwargs)
        except KeyboardInterrupt:  # as Click starts: its shell-completion check, before make_context
            _interrupted()
        except OSError as exc:  # --help or --version written to a full disk (> /dev/full)
            from .boundary import error_text, fail

            fail(error_text(exc))

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except KeyboardInterrupt:
            _interrupted()

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            _interrupted()

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of commands in the group's help, from :data:`SHORT_HELP` (no command is imported)."""
        with formatter.section("Commands"):
            formatter.write_dl([(name, SHORT_HELP[name]) for name in self.list_commands(ctx)])

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """Click's lookup of the command word, with "did you mean play?" for a
        mistyped one (:func:`difflib.get_close_matches` over the command names;
        no command module is imported for it).

        :raises click.UsageError: (status 2) for a word that names no command."""
        name = args[0] if args else ""
        if args and name not in SHORT_HELP and not name.startswith("-"):
            import difflib

            close = difflib.get_close_matches(name, self.list_commands(ctx), n=2)
            if close and not ctx.resilient_parsing:
                from ..errors import quote

                raise click.UsageError(f"No such command {quote(name)}: did you mean {' or '.join(close)}?", ctx)
        return super().resolve_command(ctx, args)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in SHORT_HELP:
            return None
        return cast(click.Command, getattr(importlib.import_module(f"{__name__}.{name}"), name))


def _interrupted() -> NoReturn:
    """End the program as an interrupt inside a command does: "Interrupted.", status 130."""
    from .signals import EXIT_INTERRUPTED

    click.echo("Interrupted.", err=True)
    sys.exit(EXIT_INTERRUPTED)


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``--version``: the version, and which search core the solver runs (compiled or pure Python)."""
    if not value or ctx.resilient_parsing:
        return
    from ..solver.core import describe  # only here: the other commands' start-up stays lazy

    core = describe()
    if core == "pure Python":  # installed without a C compiler, or FOURSQUARE_PURE_PYTHON set: say what it costs
        core += " (the solver is much slower than compiled: installed without a C compiler, or FOURSQUARE_PURE_PYTHON set)"
    click.echo(f"foursquare, version {__version__}\nsearch core: {core}")
    ctx.exit()


# --help first: Click 8.1 names the first in "Try 'foursquare --help' for help.", later
# Clicks the longest; the help lists both as "-h, --help" either way.
@click.group(cls=LazyGroup, context_settings={"help_option_names": ["--help", "-h"]})
@click.option(
    "--version", is_flag=True, expose_value=False, is_eager=True, callback=_show_version,
    help="Show the version and the solver's search core (compiled or pure Python), and exit.",
)
def main() -> None:
    """Foursquare, Wil Su's solitaire: play, replay, validate and study games."""
