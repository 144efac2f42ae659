"""Sphinx configuration of the documentation site.

Build (the ``docs`` extra: ``pip install -e '.[docs]'``)::

    sphinx-build -W -b html docs docs/_build/html
    python tools/manpages.py docs/_build/man      # the man pages, from the commands

The pages are Markdown (MyST); the command reference is generated from the Click
commands (sphinx-click), the API reference from the docstrings (autodoc).
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # (the package, also when it is not installed)

from foursquare import __version__  # noqa: E402

project = "foursquare"
author = "the foursquare developers"
copyright = "2026, the foursquare developers"  # noqa: A001
release = version = __version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "sphinx_click",
]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
# "--deal" stays two hyphens (the docstrings and --help are plain text, not typography)
smartquotes = False

html_theme = "furo"
html_title = f"foursquare {release}"
html_static_path: list[str] = []

autodoc_member_order = "bysource"
# The environment's page needs Gymnasium (the gym extra); without it, it is read from stubs.
autodoc_mock_imports = [name for name in ("gymnasium", "numpy") if importlib.util.find_spec(name) is None]
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "show-inheritance": False}

# The man pages are not built here: tools/manpages.py writes them from the Click commands
# (foursquare(1) and foursquare-COMMAND(1), with SYNOPSIS, EXIT STATUS, ENVIRONMENT, FILES).


# The commands' help is plain text, but sphinx-click reads it as reStructuredText: a word
# followed by ':' and no space (FILE:LINE, tcp://HOST:8786) would become a link there.
_SCHEME = re.compile(r"\b([A-Za-z][\w+.-]*):(?=[^\s:])")


def _plain_text(app: object, ctx: object, lines: list[str]) -> None:
    lines[:] = [_SCHEME.sub(r"\1\\:", line) for line in lines]


# sphinx.ext.viewcode lists in _modules/index.html every module an object documented here
# comes from, also one it has no source for (builtins, for a documented constant): a link
# to a page it never writes.  Such modules are dropped before it writes its pages.
# (Its links back from the source go to the name under which a module's first object is
# documented: so foursquare.gym.env comes before foursquare.gym in reference/api.md.)
def _drop_modules_without_source(app: Any) -> list[Any]:
    modules = getattr(app.env, "_viewcode_modules", {})
    for name in [name for name, entry in modules.items() if not entry]:
        del modules[name]
    return []


def setup(app: Any) -> None:
    app.connect("html-collect-pages", _drop_modules_without_source, priority=400)
    for event in ("sphinx-click-process-description", "sphinx-click-process-options",
                  "sphinx-click-process-arguments", "sphinx-click-process-usage", "sphinx-click-process-epilog"):  # fmt: skip
        app.connect(event, _plain_text)
