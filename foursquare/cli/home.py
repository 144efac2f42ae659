"""What the prompt says of a game's place in the history: why it is not recorded, at its
start (:func:`start_history`), and a last write that failed, at its end
(:func:`end_history`), as it says its errors (:func:`warn`).  The bookkeeping itself
is the application layer's (:func:`foursquare.app.datafolder.history_recorder`).
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import click

from ..app.datafolder import history_recorder
from ..engine.game import Game

if TYPE_CHECKING:
    from ..app.session import Session
    from ..history.recorder import GameRecorder
    from .style import Look


def warn(text: str, look: Look | None = None) -> None:
    """Say ``text`` on stderr as the prompt says its errors: at a terminal (``look``
    with a width) each line broken to the terminal's width between words
    (:func:`~foursquare.cli.render.fit`) and in the colour of errors; through a
    pipe (or without ``look``) as it is."""
    from .render import fit

    if look is None:
        click.echo(text, err=True)
        return
    lines = [part for line in text.split("\n") for part in fit(line, look.width)]
    look.echo("\n".join(look.style(line, "error") for line in lines), err=True)


def start_history(game: Game, interactive: bool, wanted: bool | None, look: Look | None = None) -> GameRecorder | None:
    """The recorder of ``game`` in the history (:func:`foursquare.app.datafolder.history_recorder`);
    why the game is not recorded, if it is not, said on stderr now (:func:`warn`, with ``look``)."""
    recorder, refused = history_recorder(game, interactive, wanted)
    if refused is not None:
        warn(f"{refused}. This game is not recorded in the history.", look)
    return recorder


def end_history(session: Session, look: Look | None = None) -> None:
    """The game written in the history at the end of the session (however it ends);
    a warning on stderr when the history does not hold it (:func:`warn`, with ``look``)."""
    with contextlib.suppress(OSError, ValueError):  # SIGHUP: the terminal may be gone
        error = session.end()
        if error is not None:
            from ..errors import shown_name
            from ..history.store import error_words

            assert session.history is not None
            warn(f"{shown_name(session.history.path)}: the game is NOT in the history as it stands: {error_words(error)}.", look)
