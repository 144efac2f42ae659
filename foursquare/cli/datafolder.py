"""The user's data folder's name (``FOURSQUARE_HOME``, or Click's application folder)
and the game history's file in it: a module of its own, so that the file checks
(:mod:`foursquare.cli.files`) can know the history without the rest of
:mod:`foursquare.cli.home`."""

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
