"""The ``foursquare`` command line (FORMATS.md): a thin Click layer over the engine and formats.

Each subcommand lives in its own module and is imported only when it runs,
so that ``foursquare play`` does not load the solver.
"""

from __future__ import annotations

import importlib

import click

from .. import __version__

#: Subcommand name -> "module:function" under foursquare.cli.  Add one line per command.
COMMANDS: dict[str, str] = {
    "play": "play:play",
    "replay": "replay:replay",
    "state": "state:state",
    "validate": "validate:validate",
    "solve": "solve:solve",
    "analyze": "analyze:analyze",
    "hint": "hint:hint",
    "simulate": "simulate:simulate",
    "rules": "rules:rules",
}


class LazyGroup(click.Group):
    """A Click group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(COMMANDS))

    def main(self, *args, **kwargs):
        # before Click parses anything: its usage errors, too, meet guarded streams
        from .common import guard_stderr, guard_stdout

        guard_stdout()
        guard_stderr()
        try:
            return super().main(*args, **kwargs)
        except OSError as exc:  # --help or --version written to a full disk (> /dev/full)
            from .common import error_text, fail

            fail(error_text(exc))

    def invoke(self, ctx: click.Context):
        # Ctrl-C before a command's own handling starts (while its module is
        # imported or its options parsed) ends as it does inside the command,
        # not with Click's "Aborted!" and status 1
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            from .common import EXIT_INTERRUPTED

            click.echo("Interrupted.", err=True)
            ctx.exit(EXIT_INTERRUPTED)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in COMMANDS:
            module, attr = COMMANDS[name].split(":")
            return getattr(importlib.import_module(f"{__name__}.{module}"), attr)
        return super().get_command(ctx, name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="foursquare")
def main() -> None:
    """Foursquare, Wil Su's solitaire: play, replay, validate and study games."""
