"""``foursquare schema``: print the JSON Schema of a transcript, a state or a rules file."""

from __future__ import annotations

import click

from ..formats.schema import SCHEMA_NAMES, schema_text
from . import SHORT_HELP
from .boundary import Command, command_boundary


@click.command(cls=Command, short_help=SHORT_HELP["schema"])
@click.argument("name", type=click.Choice(SCHEMA_NAMES))
@command_boundary
def schema(name: str) -> None:
    """Print the JSON Schema (draft 2020-12) of one game document of a transcript,
    of a state (or player's view) or of a rules file, as shipped in the package.

    Editors validate and complete files with it: save it to FILE and put this
    line at the top of a YAML file:

    \b
        # yaml-language-server: $schema=FILE"""
    click.echo(schema_text(name), nl=False)
