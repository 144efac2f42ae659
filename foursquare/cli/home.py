"""The user's data folder: where the game history and the prompt's line history live,
and the start and the end of a game's place in the history (:func:`start_history`,
:func:`end_history`).

``FOURSQUARE_HOME`` when it is set (and not empty), otherwise Click's
``get_app_dir("foursquare")`` (``~/.config/foursquare`` on Linux,
``~/Library/Application Support/foursquare`` on macOS, ``%APPDATA%\\foursquare``
on Windows).  The folder is made when something is first written there.
"""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING

import click

from ..engine.game import Game

if TYPE_CHECKING:
    from ..formats.history import GameRecorder
    from .session import Session

#: The environment variable that names the data folder (the tests set it).
HOME_VARIABLE = "FOURSQUARE_HOME"
#: The game history's file in the data folder (:mod:`foursquare.formats.history`).
HISTORY_FILE = "history.sqlite3"
#: The lines typed at the prompt, kept between sessions (readline's history file).
PROMPT_HISTORY_FILE = "prompt-history"


def data_folder() -> str:
    """The data folder's path (it may not exist yet)."""
    return os.environ.get(HOME_VARIABLE) or click.get_app_dir("foursquare")


def history_path() -> str:
    """The game history's path (:data:`HISTORY_FILE` in :func:`data_folder`)."""
    return os.path.join(data_folder(), HISTORY_FILE)


def prompt_history_path() -> str:
    """The prompt's line history's path (:data:`PROMPT_HISTORY_FILE` in :func:`data_folder`)."""
    return os.path.join(data_folder(), PROMPT_HISTORY_FILE)


def start_history(game: Game, interactive: bool, wanted: bool | None) -> GameRecorder | None:
    """The recorder that keeps ``game`` in the history of the data folder
    (:func:`history_path`): at the prompt unless ``--no-history``, for a
    script only with ``--history``.  A history file that is refused (from a newer
    version, not a history) is said on stderr now, and the game is played unrecorded."""
    if not (interactive if wanted is None else wanted):
        return None
    from ..formats.history import GameRecorder, Source

    recorder = GameRecorder(history_path(), game, Source.PROMPT if interactive else Source.SCRIPT)
    if recorder.refused is not None:
        click.echo(f"{recorder.refused}. This game is not recorded in the history.", err=True)
    return recorder


def end_history(session: Session) -> None:
    """The game written in the history at the end of the session (however it ends);
    a warning on stderr when the history does not hold it."""
    with contextlib.suppress(OSError, ValueError):  # SIGHUP: the terminal may be gone
        news = session.end()
        if news is not None:
            click.echo(news, err=True)
