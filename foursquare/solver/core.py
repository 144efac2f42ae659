"""Which search core runs: the compiled one (:mod:`foursquare.solver._core`, C) or the pure-Python twin.

The compiled core is built by ``pip install`` where a C compiler is present
(``setup.py``: an optional extension); where it is missing, or when the
environment variable ``FOURSQUARE_PURE_PYTHON`` is set (to anything but
``""`` or ``0``), the search runs in pure Python, with the same results and the
same node counts, only slower (:mod:`foursquare.solver.search`).

    >>> describe() in ("compiled (C)", "pure Python")
    True
"""

from __future__ import annotations

import contextlib
import importlib
import os
from types import ModuleType

__all__ = ["CORE", "COMPILED", "PURE_PYTHON_VARIABLE", "describe", "fits"]

#: The environment variable that forces the pure-Python search.
PURE_PYTHON_VARIABLE = "FOURSQUARE_PURE_PYTHON"

#: The compiled core (a module with ``search_budget``), or ``None`` for the pure-Python search.
CORE: ModuleType | None = None
if os.environ.get(PURE_PYTHON_VARIABLE, "") in ("", "0"):
    with contextlib.suppress(ImportError):  # built without a compiler: the pure-Python search runs
        CORE = importlib.import_module("._core", __package__)

#: Whether the compiled core is in use.
COMPILED = CORE is not None


def fits(frame: int, size: int, pile_cap: int) -> bool:
    """Whether the compiled core takes a rule set's frame (``frame`` wide, at most 63
    cells: one 64-bit word), grid side (at most 6) and pile cap (at most 8); the
    pure-Python search takes the rest (e.g. a 5x5 floating grid, 81 cells)."""
    return frame * frame <= 63 and size <= 6 and pile_cap <= 8


def describe() -> str:
    """``compiled (C)`` or ``pure Python``: the search core in use (``foursquare --version``)."""
    return "compiled (C)" if COMPILED else "pure Python"
