"""The guide pages are written in plain sentences (issue 42, item 13): measured by
tools/sentences.py over the prose (code blocks and tables left out), every page of
docs/guide/ has a median sentence of at most 18 words and at most 10% of its sentences
over 30 words, and opens with the task and its command."""

from __future__ import annotations

import importlib.util
import re
import sys

import pytest
from helpers import ROOT

GUIDE = ROOT / "docs" / "guide"
_spec = importlib.util.spec_from_file_location("sentences", ROOT / "tools" / "sentences.py")
assert _spec is not None and _spec.loader is not None
sentences = importlib.util.module_from_spec(_spec)
sys.modules["sentences"] = sentences
_spec.loader.exec_module(sentences)

PAGES = sorted(GUIDE.glob("*.md"))
TASK_PAGES = [page for page in PAGES if page.stem != "index"]


def test_the_splitter_leaves_code_and_tables_out_and_cuts_at_sentence_ends():
    text = "# Title\n\nOne two three. Four five, e.g. six.\n\n```sh\nnot. counted. at all\n```\n\n| a | b |\n\n- an item\n- another one\n"
    assert sentences.sentences(text) == [3, 4, 2, 2]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_guide_page_is_in_plain_sentences(page):
    got = sentences.figures(page.read_text(encoding="utf-8"))
    assert got.median <= sentences.MEDIAN_MAX, f"{page.name}: median sentence {got.median} words"
    assert got.long_share <= sentences.LONG_SHARE_MAX, f"{page.name}: {got.long_share:.0%} of sentences over 30 words"


@pytest.mark.parametrize("page", TASK_PAGES, ids=lambda page: page.name)
def test_guide_page_opens_with_the_task_and_its_command(page):
    text = page.read_text(encoding="utf-8")
    body = text.split("\n## ", 1)[0]  # the page's opening, before its first section
    assert re.search(r"```(sh|console|text)\n\$? ?foursquare ", body) or re.search(r"```(sh|console)\n", body), (
        f"{page.name}: no command in the opening"
    )


@pytest.mark.parametrize("page", TASK_PAGES, ids=lambda page: page.name)
def test_guide_page_links_to_the_contract_for_the_guarantees(page):
    assert "reference/contract" in page.read_text(encoding="utf-8"), page.name
