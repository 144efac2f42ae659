"""Sentence lengths of the guide pages (issue 42, item 13): plain sentences.

For each Markdown page given (by default every page of docs/guide/), print the number
of sentences, the median sentence length in words, and the share of sentences over
30 words.  Code blocks (fenced), tables, headings, MyST directives and HTML comments
are left out; each paragraph and each list item is cut into sentences at '.', '!' or
'?' followed by a space (or at its end).  A word is a run of non-space characters that
holds a letter or a digit.

    python tools/sentences.py                 # the figures of every guide page
    python tools/sentences.py --check         # exit 1 if a page misses the target
    python tools/sentences.py --long docs/guide/ci.md   # its sentences over 30 words

The target (tests/project/test_sentences.py holds the pages to it): median <= 18
words and at most 10% of the sentences over 30 words.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "guide"
MEDIAN_MAX = 18
LONG = 30
LONG_SHARE_MAX = 0.10

_FENCE = re.compile(r"^\s*(```|~~~|:::)")
_ITEM = re.compile(r"^\s*([-*+]|\d+[.)])\s+")
# A sentence ends at . ! or ? (maybe after a closing quote, bracket or backtick) and a space.
_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)([.!?][)\"'`*]*)\s+")
_TARGET = re.compile(r"\([\w-]+\)=")  # a MyST target: (name)=
_WORD = re.compile(r"\S*[A-Za-z0-9]\S*")


def blocks(text: str) -> list[str]:
    """The page's prose: its paragraphs and list items, without code, tables or headings."""
    out: list[str] = []
    current: list[str] = []
    fence: str | None = None

    def flush() -> None:
        if current:
            out.append(" ".join(current))
            current.clear()

    for line in text.splitlines():
        stripped = line.strip()
        marker = _FENCE.match(line)
        if fence is not None:
            if marker and stripped.startswith(fence) and set(stripped) == {fence[0]}:
                fence = None
            continue
        if marker:
            flush()
            char = marker.group(1)[0]
            fence = stripped[: len(stripped) - len(stripped.lstrip(char))]
            continue
        if not stripped or stripped.startswith(("#", "|", "<!--")) or _TARGET.fullmatch(stripped):
            flush()
            continue
        if _ITEM.match(line):
            flush()
            stripped = _ITEM.sub("", line).strip()
        current.append(stripped)
    flush()
    return out


def sentences(text: str) -> list[int]:
    """The length in words of each sentence of the page's prose."""
    lengths: list[int] = []
    for block in blocks(text):
        for sentence in _END.sub(r"\1\n", block).splitlines():
            words = len(_WORD.findall(sentence))
            if words:
                lengths.append(words)
    return lengths


@dataclass(frozen=True)
class Figures:
    sentences: int
    median: float
    long_share: float

    @property
    def ok(self) -> bool:
        return self.median <= MEDIAN_MAX and self.long_share <= LONG_SHARE_MAX


def figures(text: str) -> Figures:
    lengths = sentences(text)
    if not lengths:
        return Figures(0, 0.0, 0.0)
    return Figures(len(lengths), statistics.median(lengths), sum(n > LONG for n in lengths) / len(lengths))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*", type=Path, help="Markdown pages (default: docs/guide/*.md)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a page misses the target")
    parser.add_argument("--long", action="store_true", help="print each page's sentences over 30 words")
    args = parser.parse_args(argv)
    pages = args.pages or sorted(GUIDE.glob("*.md"))
    missed = []
    print(f"{'page':<28} {'sentences':>9} {'median':>7} {'over 30':>8}")
    for page in pages:
        text = page.read_text(encoding="utf-8")
        got = figures(text)
        name = page.resolve().relative_to(ROOT) if page.resolve().is_relative_to(ROOT) else page
        flag = "" if got.ok else "  <- misses the target"
        print(f"{str(name):<28} {got.sentences:>9} {got.median:>7.1f} {got.long_share:>7.0%}{flag}")
        if not got.ok:
            missed.append(name)
        if args.long:
            for block in blocks(text):
                for sentence in _END.sub(r"\1\n", block).splitlines():
                    if len(_WORD.findall(sentence)) > LONG:
                        print(f"    [{len(_WORD.findall(sentence))}] {sentence}")
    print(f"target: median <= {MEDIAN_MAX} words, at most {LONG_SHARE_MAX:.0%} of sentences over {LONG} words")
    if args.check and missed:
        print("missed: " + ", ".join(map(str, missed)), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
