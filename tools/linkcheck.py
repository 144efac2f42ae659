"""An offline check of the links inside the built documentation site (issue 42, item 12).

Sphinx's ``linkcheck`` builder goes online and skips the links between pages; this
reads every HTML file of a built site and checks each internal link (``href`` and
``src`` with no scheme): the file it names exists under the site, and its anchor
(``#name``), if any, is an ``id`` (or ``name``) in that file.  Links to other sites
are left alone.

    python -m sphinx -W -b html docs docs/_build/html
    python tools/linkcheck.py docs/_build/html

It prints one line per broken link (``page.html: href -> what is wrong``) and exits 1
if there is any, 0 if every link holds (2 if the folder holds no HTML at all).
"""

from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Page(HTMLParser):
    """The anchors a page defines and the links it makes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.anchors: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name in ("id", "name") and (name == "id" or tag == "a"):
                self.anchors.add(value)
            elif (name == "href" and tag in ("a", "link", "area")) or (name == "src" and tag in ("img", "script", "iframe", "source")):
                self.links.append(value)


def _read(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8", errors="replace"))
    return page


def broken_links(site: Path) -> list[str]:
    """Every broken internal link of the built site, as ``page: link -> reason``."""
    site = site.resolve()
    pages = {path: _read(path) for path in sorted(site.rglob("*.html"))}
    problems: list[str] = []
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("mailto:", "javascript:", "data:")):
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if parts.path.endswith("/") or target.is_dir():
                target = target / "index.html"
            where = f"{path.relative_to(site)}: {link}"
            if not target.is_relative_to(site):
                problems.append(f"{where} -> outside the site")
            elif not target.is_file():
                problems.append(f"{where} -> no file {target.relative_to(site)}")
            elif parts.fragment and target.suffix == ".html":
                anchors = pages[target].anchors if target in pages else _read(target).anchors
                if unquote(parts.fragment) not in anchors:
                    problems.append(f"{where} -> no anchor #{parts.fragment} in {target.relative_to(site)}")
    return problems


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python tools/linkcheck.py SITE_FOLDER (a built HTML site)", file=sys.stderr)
        return 2
    site = Path(args[0])
    if not any(site.rglob("*.html")):
        print(f"linkcheck: no HTML file in {site}", file=sys.stderr)
        return 2
    problems = broken_links(site)
    for problem in problems:
        print(problem)
    count = sum(1 for _ in site.rglob("*.html"))
    print(f"linkcheck: {count} pages, {len(problems)} broken internal links", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
