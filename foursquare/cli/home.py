"""A game's place in the history: its start (:func:`start_history`) and its end
(:func:`end_history`), and the prompt's warnings about the data folder (:func:`warn`).
Where the data folder is, and the history's file in it: :mod:`foursquare.app.datafolder`.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import click

from ..engine.game import Game

if TYPE_CHECKING:
    from ..app.session import Session
    from ..history.recorder import GameRecorder
    from .style import Look

from ..app.datafolder import history_path
from ..errors import HistoryStoreError


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
    """The recorder that keeps ``game`` in the history of the data folder
    (:func:`history_path`): at the prompt unless ``--no-history``, for a
    script only with ``--history``.  A history file that is refused (from a newer
    version, not a history, a data folder that cannot hold one, no data folder:
    :class:`HistoryStoreError`) is said on stderr now (:func:`warn`, with ``look``),
    and the game is played unrecorded."""
    if not (interactive if wanted is None else wanted):
        return None
    from ..history.recorder import start_recording

    try:
        path = history_path()
    except HistoryStoreError as exc:
        warn(f"{exc}. This game is not recorded in the history.", look)
        return None
    recorder = start_recording(path, game, interactive=interactive)
    if recorder.refused is not None:
        warn(f"{recorder.refused}. This game is not recorded in the history.", look)
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
