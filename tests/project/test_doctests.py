"""The ``>>>`` examples in the package's docstrings run, and say what they show.

Every module of ``foursquare`` is imported the way a user imports it (by its
dotted name) and its examples run with :mod:`doctest` (``ELLIPSIS`` on), one test
per module.  README.md's examples run in ``project/test_examples.py``.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import io
import pkgutil

import pytest

import foursquare

MODULES = sorted(
    ["foursquare"] + [info.name for info in pkgutil.walk_packages(foursquare.__path__, "foursquare.") if not info.name.endswith("__main__")]
)

#: Whether Gymnasium is installed: foursquare.gym's modules import only with the gym extra.
HAS_GYMNASIUM = importlib.util.find_spec("gymnasium") is not None


def examples(name: str) -> list[doctest.DocTest]:
    """The docstrings of module ``name`` (by its dotted name) that hold examples."""
    return [test for test in doctest.DocTestFinder().find(importlib.import_module(name), name) if test.examples]


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_of_each_module_run(name):
    if name.startswith("foursquare.gym"):
        pytest.importorskip("gymnasium", reason="foursquare.gym needs the gym extra: pip install -e '.[gym]'")
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report = io.StringIO()
    for test in examples(name):
        runner.run(test, out=report.write)
    assert runner.failures == 0, report.getvalue()


def test_the_package_has_examples_to_run():
    # a walk that found no module, or examples that vanished, would pass the test above
    assert len(MODULES) > 20 and "foursquare.engine.game" in MODULES
    runnable = [name for name in MODULES if HAS_GYMNASIUM or not name.startswith("foursquare.gym")]
    assert sum(len(test.examples) for name in runnable for test in examples(name)) >= 14
