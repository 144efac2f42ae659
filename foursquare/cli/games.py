"""The game and rule set a command's options and file name (thin wrappers over
:mod:`foursquare.formats.loading` that put the option names into its messages).

A ``--deal``/``--deck``/``--rules``/``--game`` that disagrees with the file is a
usage error (status 2) naming the option; a file's problems are ``FILE:LINE:
message`` (status 1 at the boundary).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import click

from ..engine.cards import Card
from ..engine.game import Game
from ..engine.rules import STANDARD, Rules
from ..errors import AgreementError, EmptyGameFileError, FormatError, GameChoiceError, shown_name


def load_rules_option(spec: str | None) -> Rules | None:
    """The rule set of a ``--rules`` value (a preset name or a rules file), or ``None`` when not given.

    A value that is neither a preset nor a file's name was refused as it was parsed
    (:class:`~foursquare.cli.options.RulesSpec`, a usage error, status 2).

    :raises FormatError: for a rules file with a problem, or missing (status 1 at the boundary).
    """
    if spec is None:
        return None
    from ..formats.rulesfile import load_rules

    return load_rules(spec)


def read_deck_option(path: str, rules: Rules | None) -> list[Card]:
    """The cards of a ``--deck`` file (``-`` for stdin), top first.

    :raises FormatError: naming the file and line of the first bad card.
    """
    from ..formats.deck import read_deck_file

    return read_deck_file(path, rules)


def new_game(deal: int | None, deck_path: str | None, rules: Rules | None) -> Game | None:
    """A new game from ``--deal`` or ``--deck``; ``None`` when neither is given."""
    if deal is not None:
        return Game.from_deal(deal, rules or STANDARD)
    if deck_path is not None:
        return Game(read_deck_option(deck_path, rules), rules or STANDARD)
    return None


@contextlib.contextmanager
def _option_names(
    deal: int | None, deck_path: str | None, rules: Rules | None, rules_spec: str | None
) -> Iterator[None]:
    """The loading errors that concern an option, with the option named."""
    try:
        yield
    except AgreementError as exc:
        source = shown_name(exc.source)
        if exc.given == "game":
            message = f"--game picks a game of a transcript; {source} is not a transcript"
        elif exc.given == "deal":
            message = f"{source} {exc.own}; --deal {deal} disagrees"
        elif exc.given == "deck":
            message = f"{source} {exc.own}; --deck {shown_name(str(deck_path))} disagrees"
        else:
            assert rules is not None
            message = f"{source} {exc.own}; --rules {shown_name(rules_spec) if rules_spec else rules.label} disagrees"
        raise click.UsageError(message) from None
    except GameChoiceError as exc:
        if exc.number is None:
            text = f"the file holds {exc.games} games; pick one with --game K (1 to {exc.games})"
        else:
            held = "1 game" if exc.games == 1 else f"{exc.games} games"
            text = f"--game {exc.number}: the file holds only {held}"
        raise FormatError(exc.source, exc.line, text) from None
    except EmptyGameFileError as exc:
        if not exc.start_allowed:
            raise
        raise FormatError(
            exc.source, 1,
            f"the file {exc.what} (expected a move script, a transcript or a state;"
            " with --deal N or --deck FILE, an empty move script means the start of the deal)",
        ) from None


def load_game_file(
    path: str,
    deal: int | None,
    deck_path: str | None,
    rules: Rules | None,
    *,
    rules_spec: str | None = None,
    game_number: int | None = None,
    empty_ok: bool = True,
) -> Game:
    """The game a file describes (a move script, a transcript or a state), replayed
    to its end; ``--deal`` / ``--deck`` / ``--rules`` give what the file does not
    (:func:`foursquare.formats.loading.load_game_text`).

    :param game_number: the game of a multi-game transcript (from 1); without it
        such a file is an error that says how to pick one.
    :raises click.UsageError: when ``--deal``, ``--deck`` or ``--rules`` disagrees
        with what the file names itself (status 2), or ``--game`` is given for a
        file that is not a transcript.
    :raises FormatError: ``FILE:LINE: message`` at the first problem.
    """
    from ..formats.loading import load_game_file as load

    deck = read_deck_option(deck_path, rules) if deck_path is not None else None
    with _option_names(deal, deck_path, rules, rules_spec):
        return load(path, deal=deal, deck=deck, rules=rules, game_number=game_number, empty_ok=empty_ok)


def load_game_text(
    text: str,
    name: str,
    deal: int | None,
    deck_path: str | None,
    rules: Rules | None,
    *,
    rules_spec: str | None = None,
    game_number: int | None = None,
    empty_ok: bool = True,
) -> Game:
    """:func:`load_game_file` for a file already read (``name`` is its display name).

    A text without moves (empty, or only comments and blank lines) is an empty
    move script: the start of ``--deal``/``--deck`` (an error without them, or
    with ``empty_ok=False``, as for ``play --resume``)."""
    from ..formats.loading import load_game_text as load

    deck = read_deck_option(deck_path, rules) if deck_path is not None else None
    with _option_names(deal, deck_path, rules, rules_spec):
        return load(text, name, deal=deal, deck=deck, rules=rules, game_number=game_number, empty_ok=empty_ok)
