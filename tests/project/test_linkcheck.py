"""tools/linkcheck.py, the offline check of the built site's internal links that the
docs gate of .ci/run runs (issue 42, item 12: a link to a page never written, an anchor
that no page defines)."""

from __future__ import annotations

import importlib.util
import sys

from helpers import ROOT

_spec = importlib.util.spec_from_file_location("linkcheck", ROOT / "tools" / "linkcheck.py")
assert _spec is not None and _spec.loader is not None
linkcheck = importlib.util.module_from_spec(_spec)
sys.modules["linkcheck"] = linkcheck
_spec.loader.exec_module(linkcheck)


def test_broken_files_and_anchors_are_found_and_good_links_pass(tmp_path):
    (tmp_path / "guide").mkdir()
    (tmp_path / "index.html").write_text(
        '<a href="guide/a.html#top">ok</a> <a href="guide/a.html#gone">bad anchor</a>'
        ' <a href="builtins.html">no page</a> <a href="https://example.org/x.html">elsewhere</a>'
        ' <a href="#here">self</a><span id="here"></span> <img src="missing.svg">'
    )
    (tmp_path / "guide" / "a.html").write_text('<h1 id="top">A</h1><a href="../index.html#here">back</a><a href="../">root</a>')
    problems = linkcheck.broken_links(tmp_path)
    assert problems == [
        "index.html: guide/a.html#gone -> no anchor #gone in guide/a.html",
        "index.html: builtins.html -> no file builtins.html",
        "index.html: missing.svg -> no file missing.svg",
    ]
    assert linkcheck.main([str(tmp_path)]) == 1
    (tmp_path / "index.html").write_text('<a href="guide/a.html#top">ok</a><span id="here"></span>')
    assert linkcheck.main([str(tmp_path)]) == 0
    assert linkcheck.main([str(tmp_path / "guide" / "none")]) == 2
