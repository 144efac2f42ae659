"""The user's data folder, where the game history and the prompt's line history live.

``FOURSQUARE_HOME`` when it is set (a leading ``~`` is the home folder; a relative name
is made absolute), otherwise Click's ``get_app_dir("foursquare")``
(``~/.config/foursquare`` on Linux, ``~/Library/Application Support/foursquare`` on
macOS, ``%APPDATA%\\foursquare`` on Windows).  The folder is made when something is
first written there.  ``FOURSQUARE_HOME`` set but empty (or only white space) names no
folder: it is an error (:class:`DataFolderError`, status 1, as a ``FOURSQUARE_HOME``
that names a file), never a silent fall back to the default folder; ``play`` says so
and plays the game unrecorded, as for any data folder that cannot hold a history.
A module of its own, so that the file checks (:mod:`foursquare.cli.files`) know the
history's file without the rest of :mod:`foursquare.cli.home`.
"""

from __future__ import annotations

import os

import click

from ..errors import FoursquareError

#: The environment variable that names the data folder (the tests set it).
HOME_VARIABLE = "FOURSQUARE_HOME"
#: The game history's file in the data folder (:mod:`foursquare.formats.history`).
HISTORY_FILE = "history.sqlite3"
#: The lines typed at the prompt, kept between sessions (readline's history file).
PROMPT_HISTORY_FILE = "prompt-history"


class DataFolderError(FoursquareError):
    """``FOURSQUARE_HOME`` names no data folder (it is set but empty)."""


def data_folder() -> str:
    """The data folder's path, absolute (it may not exist yet): ``FOURSQUARE_HOME`` (a
    leading ``~`` is the user's home folder, as the shell would have it; a relative
    path is taken from the current folder once, so every message names the folder in
    full), or the user's application folder.

    :raises DataFolderError: when ``FOURSQUARE_HOME`` is set but empty or only white
        space (a mistake, as ``FOURSQUARE_HOME=$UNSET_VARIABLE``): the default folder is
        not used silently instead.
    """
    value = os.environ.get(HOME_VARIABLE)
    if value is None:
        return click.get_app_dir("foursquare")
    if not value.strip():
        default = click.get_app_dir("foursquare")
        raise DataFolderError(
            f"{HOME_VARIABLE} is set but empty: set it to the data folder, or unset it to use the default ({default})"
        )
    return os.path.abspath(os.path.expanduser(value))


def history_path() -> str:
    """The game history's path (:data:`HISTORY_FILE` in :func:`data_folder`).

    :raises DataFolderError: as :func:`data_folder`.
    """
    return os.path.join(data_folder(), HISTORY_FILE)


def prompt_history_path() -> str:
    """The prompt's line history's path (:data:`PROMPT_HISTORY_FILE` in :func:`data_folder`);
    :data:`os.devnull` when there is no data folder (:class:`DataFolderError`): the line
    history is a convenience, left out quietly (the game history's warning says why)."""
    try:
        return os.path.join(data_folder(), PROMPT_HISTORY_FILE)
    except DataFolderError:
        return os.devnull
