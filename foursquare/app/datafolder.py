"""The user's data folder, where the game history and the prompt's line history live.

``FOURSQUARE_HOME`` when it is set (a leading ``~`` is the home folder; a relative name
is made absolute), otherwise the user's application folder, the one Click's
``get_app_dir("foursquare")`` names, worked out without Click (:func:`default_folder`:
``$XDG_CONFIG_HOME/foursquare`` or ``~/.config/foursquare`` on Linux,
``~/Library/Application Support/foursquare`` on macOS, ``%APPDATA%\\foursquare`` on
Windows).  The folder is made when something is first written there.
``FOURSQUARE_HOME`` set but empty (or only white space) names no folder: it is an
error (:class:`~foursquare.errors.HistoryStoreError`, status 1, as a ``FOURSQUARE_HOME`` that names a
file), never a silent fall back to the default folder; ``play`` says so and plays the
game unrecorded, as for any data folder that cannot hold a history.  The same for a
``HOME`` that is empty or relative when the home folder is needed (the folder would
be ``/.config/foursquare``, at the root, or follow the current folder); an empty or
relative ``XDG_CONFIG_HOME`` is ignored, as the XDG Base Directory specification says.
A game's place in the history of the data folder starts here (:func:`history_recorder`).
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TYPE_CHECKING

from ..errors import HistoryStoreError

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..history.recorder import GameRecorder

#: The environment variable that names the data folder (the tests set it).
HOME_VARIABLE = "FOURSQUARE_HOME"
#: The data folder's name in the user's application folders.
APP_NAME = "foursquare"


def data_folder() -> str:
    """The data folder's path, absolute (it may not exist yet): ``FOURSQUARE_HOME`` (a
    leading ``~`` is the user's home folder, as the shell would have it; a relative
    path is taken from the current folder once, so every message names the folder in
    full), or the user's application folder (:func:`default_folder`).

    :raises HistoryStoreError: when ``FOURSQUARE_HOME`` is set but empty or only white
        space (a mistake, as ``FOURSQUARE_HOME=$UNSET_VARIABLE``): the default folder is
        not used silently instead; or when the home folder is needed and ``HOME``
        names none (:func:`home_folder`).
    """
    value = os.environ.get(HOME_VARIABLE)
    if value is None:
        return default_folder()
    if not value.strip():
        try:
            default = f"the default ({default_folder()})"
        except HistoryStoreError:
            default = "the default"
        raise HistoryStoreError(f"{HOME_VARIABLE} is set but empty: set it to the data folder, or unset it to use {default}")
    if value == "~" or value.startswith("~/"):
        value = home_folder(f"so '~' in {HOME_VARIABLE} names no folder: set HOME, or write the data folder in full") + value[1:]
    return os.path.abspath(os.path.expanduser(value))


def default_folder() -> str:
    """The user's application folder, as Click's ``get_app_dir("foursquare")`` names
    it (worked out here: this layer does without Click), but never from an empty or
    relative variable: on Linux and the like
    ``$XDG_CONFIG_HOME/foursquare`` when it is an absolute path (an empty or relative
    ``XDG_CONFIG_HOME`` is ignored, as the XDG Base Directory specification says),
    otherwise ``~/.config/foursquare``; ``~/Library/Application Support/foursquare``
    on macOS; ``%APPDATA%\\foursquare`` on Windows (the home folder in place of
    ``%APPDATA%`` when it is unset, as Click has it).

    :raises HistoryStoreError: when the home folder is needed and ``HOME`` names none
        (:func:`home_folder`).
    """
    if sys.platform.startswith("win"):
        appdata = os.environ.get("APPDATA")  # Click's roaming folder, taken as it is
        return os.path.join(os.path.expanduser("~") if appdata is None else appdata, APP_NAME)
    if sys.platform == "darwin":
        return os.path.join(home_folder(), "Library", "Application Support", APP_NAME)
    config = os.environ.get("XDG_CONFIG_HOME", "")
    return os.path.join(config if os.path.isabs(config) else os.path.join(home_folder(), ".config"), APP_NAME)


def home_folder(advice: str = f"set it to your home folder, or set {HOME_VARIABLE} to the data folder") -> str:
    """The user's home folder: ``HOME``, or the system's account database when it is unset.

    :param advice: what the error says to do, after why (``HOME is set but empty: ADVICE``).

    :raises HistoryStoreError: when ``HOME`` is set but empty or only white space (the
        data folder would be made at the root of the file system, ``/.config``), or is
        not an absolute path (it would follow the current folder), or no home folder
        is known at all.
    """
    value = os.environ.get("HOME")
    if value is not None and not value.strip():
        raise HistoryStoreError(f"HOME is set but empty: {advice}")
    home = os.path.expanduser("~")
    if not os.path.isabs(home):
        raise HistoryStoreError(
            f"HOME is not an absolute path ({value!r}): {advice}" if value is not None
            else f"HOME is not set and no home folder is known: {advice}"
        )
    return home


def history_path() -> str:
    """The game history's path (:mod:`foursquare.history.store`): ``history.sqlite3`` in :func:`data_folder`.

    :raises HistoryStoreError: as :func:`data_folder`.
    """
    return os.path.join(data_folder(), "history.sqlite3")


def prompt_history_path() -> str:
    """The prompt's line history's path (readline's history file): ``prompt-history`` in :func:`data_folder`;
    :data:`os.devnull` when there is no data folder (:class:`HistoryStoreError`): the line
    history is a convenience, left out quietly (the game history's warning says why)."""
    try:
        return os.path.join(data_folder(), "prompt-history")
    except HistoryStoreError:
        return os.devnull


def words_setting(wanted: bool | None) -> bool:
    """Whether the prompt says the game in words: ``wanted`` (``--words`` true, ``--grid``
    false), kept in the data folder for the games after: while its file ``words-mode`` is
    there (``--words`` makes it, ``--grid`` removes it); with neither, as kept.  A data
    folder that cannot keep it is passed over quietly."""
    with contextlib.suppress(HistoryStoreError, OSError):
        path = os.path.join(data_folder(), "words-mode")
        if wanted is None:
            return os.path.exists(path)
        if wanted:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as kept:
                kept.write("foursquare play says the game in words while this file is here.\n")
        elif os.path.exists(path):
            os.remove(path)
    return bool(wanted)


def history_recorder(game: Game, interactive: bool, wanted: bool | None) -> tuple[GameRecorder | None, HistoryStoreError | None]:
    """The recorder that keeps ``game`` in the history of the data folder
    (:func:`history_path`): at the prompt unless ``--no-history`` (``wanted`` false),
    for a script only with ``--history`` (``wanted`` true); and why the game is not
    recorded, for the caller to say: a history file that is refused (from a newer
    version, not a history) or no data folder that can hold one."""
    if not (interactive if wanted is None else wanted):
        return None, None
    from ..history import GameRecorder, Source

    try:
        path = history_path()
    except HistoryStoreError as exc:
        return None, exc
    recorder = GameRecorder(path, game, Source.PROMPT if interactive else Source.SCRIPT)
    return recorder, recorder.refused
