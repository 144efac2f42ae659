"""The user's data folder: where the game history and the prompt's line history live.

``FOURSQUARE_HOME`` when it is set (and not empty), otherwise Click's
``get_app_dir("foursquare")`` (``~/.config/foursquare`` on Linux,
``~/Library/Application Support/foursquare`` on macOS, ``%APPDATA%\\foursquare``
on Windows).  The folder is made when something is first written there.
"""

from __future__ import annotations

import os

import click

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
