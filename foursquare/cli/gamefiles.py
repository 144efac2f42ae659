"""The game a command's options and file name (thin wrappers over
:class:`foursquare.app.games.GameSpec` that put the option names into its messages).

A ``--deal``/``--deck``/``--rules``/``--game`` that disagrees with the file is a
usage error (status 2) naming the option; a file's problems are ``FILE:LINE:
message`` (status 1 at the boundary).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import click

from ..app.games import GameSpec
from ..engine.game import Game
from ..errors import AgreementError, FormatError, shown_name


@contextlib.contextmanager
def _option_names(spec: GameSpec) -> Iterator[None]:
    """The loading errors that concern an option, with the option named: a disagreement
    between the file and an option is a usage error that names the option."""
    try:
        yield
    except AgreementError as exc:
        source, given, own = shown_name(exc.facts["source"]), exc.facts["given"], exc.facts["own"]
        if given == "game":
            raise click.UsageError(f"--game picks a game of a transcript; {source} is not a transcript") from None
        rules = spec.rules.label if spec.rules is not None else ""
        shown = {"deal": str(spec.deal), "deck": shown_name(str(spec.deck_path))}.get(
            given, shown_name(spec.rules_spec) if spec.rules_spec else rules
        )
        raise click.UsageError(f"{source} {own}; --{given} {shown} disagrees") from None
    except FormatError as exc:
        if exc.facts.get("number") is None:
            raise  # its advice, if any, is said in the options' words at the boundary
        raise FormatError(exc.source, exc.line, f"--{exc.message}") from None  # --game K: the file holds only ...


def game_of_options_file(path: str, spec: GameSpec, *, game_number: int | None = None, empty_ok: bool = True) -> Game:
    """The game a file describes (a move script, a transcript or a state), replayed
    to its end; ``--deal`` / ``--deck`` / ``--rules`` (``spec``) give what the file does
    not (:meth:`GameSpec.game_of_file <foursquare.app.games.GameSpec.game_of_file>`).

    :param game_number: ``--game``: the game of a multi-game transcript (from 1); without
        it such a file is an error that says how to pick one.
    :raises click.UsageError: when ``--deal``, ``--deck`` or ``--rules`` disagrees
        with what the file names itself (status 2), or ``--game`` is given for a
        file that is not a transcript.
    :raises FormatError: ``FILE:LINE: message`` at the first problem.
    """
    with _option_names(spec):
        return spec.game_of_file(path, game_number=game_number, empty_ok=empty_ok)


def game_of_options_text(
    text: str, name: str, spec: GameSpec, *, game_number: int | None = None, empty_ok: bool = True
) -> Game:
    """:func:`game_of_options_file` for a file already read (``name`` is its display name).

    A text without moves (empty, or only comments and blank lines) is an empty
    move script: the start of ``--deal``/``--deck`` (an error without them, or
    with ``empty_ok=False``, as for ``play --resume``)."""
    with _option_names(spec):
        return spec.game_of_text(text, name, game_number=game_number, empty_ok=empty_ok)
