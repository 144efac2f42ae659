"""The machine formats of ``foursquare validate`` (FORMATS.md "validate"; README "Checking
transcripts"): JSON written element by element, JSON lines, GitHub Actions workflow
commands and JUnit XML.

Each writer takes the games' JSON objects (``file``, ``game``, ``line``, ``valid``,
``errors``, ...) one at a time, as the command checks them, and writes through the
``write`` function it is given (text without a final newline added), so that no
format holds every game's report to the end.  No Click here: the command gives ``write``.
"""

from __future__ import annotations

import json
import re
import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

#: Writes one piece of text, as it is.
Write = Callable[[str], None]
#: The characters XML 1.0 cannot hold even escaped (control characters but tab, LF, CR).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml_text(text: str) -> str:
    """``text`` with each character XML cannot hold shown as ``\\xNN``."""
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def escape_data(text: str) -> str:
    """A workflow command's message escaped as the Actions toolkit escapes it
    (``@actions/core`` ``escapeData``): ``%`` -> ``%25``, CR -> ``%0D``, LF -> ``%0A``."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value escaped as the Actions toolkit escapes it
    (``escapeProperty``): as :func:`escape_data`, and ``:`` -> ``%3A``, ``,`` -> ``%2C``."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _not_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a byte of the name that is not UTF-8 (a lone surrogate)
        return True
    return False


def github_command(result: dict[str, Any], error: dict[str, Any], path: str | None = None) -> str:
    """The ``::error file=F,line=L,title=T::message`` workflow command of one error of
    a game's (or a file's) JSON object; ``line`` is left out when no line applies.
    ``path``: the file's path as given, which GitHub needs to place the annotation
    (the object's ``file`` is quoted as a shell would quote it)."""
    if path is not None and (not path.isprintable() or _not_utf8(path)):
        path = None  # a name no annotation can hold as it is: the shell's quoting, as elsewhere
    props = [f"file={escape_property(path if path is not None else result['file'])}"]
    if error["line"] is not None:
        props.append(f"line={error['line']}")
    where = ", ".join(part for part in (result["game"] and f"game {result['game']}", error["move"] and f"move {error['move']}") if part)
    props.append(f"title={escape_property('foursquare validate' + (f': {where}' if where else ''))}")
    return f"::error {','.join(props)}::{escape_data(error['message'])}"


class Reporter:
    """Writes the games' JSON objects in one format as they come.

    :param fmt: ``json`` (one array, element by element), ``json-lines`` (one object
        a line), ``github`` (one workflow command per error) or ``junit`` (JUnit XML:
        one ``testsuite`` per file, one ``testcase`` per game named ``game K`` whose
        classname is the file, a ``failure`` per invalid game listing its errors).
    :param write: where the text goes.

    A JUnit testsuite is written when its file ends (its counts come first), so that
    writer keeps one small element per game of the current file until then.
    """

    def __init__(self, fmt: str, write: Write) -> None:
        self.fmt = fmt
        self.write = write
        self.count = 0
        self._cases: list[ET.Element] = []
        self._failures = 0

    def begin(self) -> None:
        """Before the first game."""
        if self.fmt == "junit":
            self.write('<?xml version="1.0" encoding="utf-8"?>\n<testsuites name="foursquare validate">\n')

    def game(self, result: dict[str, Any], path: str | None = None) -> None:
        """One game's JSON object (a file not read game by game: ``game`` null)."""
        self.count += 1
        if self.fmt == "json":
            element = textwrap.indent(json.dumps(result, indent=2), "  ")
            self.write(("[\n" if self.count == 1 else ",\n") + element)
        elif self.fmt == "json-lines":
            self.write(json.dumps(result) + "\n")
        elif self.fmt == "github":
            for error in result["errors"]:
                self.write(github_command(result, error, path) + "\n")
        elif self.fmt == "junit":
            name = "file" if result["game"] is None else f"game {result['game']}"
            case = ET.Element("testcase", classname=_xml_text(result["file"]), name=name)
            if not result["valid"]:
                self._failures += 1
                texts = [_xml_text(e["text"]) for e in result["errors"]]
                first = texts[0] if texts else "invalid"
                failure = ET.SubElement(case, "failure", message=first, type="invalid")
                failure.text = "\n".join(texts)
            self._cases.append(case)

    def file_end(self, shown: str) -> None:
        """After the last game of a file (``shown``: its name as messages show it)."""
        if self.fmt != "junit":
            return
        suite = ET.Element("testsuite", name=_xml_text(shown), tests=str(len(self._cases)), failures=str(self._failures), errors="0")
        suite.extend(self._cases)
        ET.indent(suite, space="  ", level=1)
        self.write("  " + ET.tostring(suite, encoding="unicode") + "\n")
        self._cases, self._failures = [], 0

    def end(self) -> None:
        """After the last file (also when the run is cut short: a JSON array is closed)."""
        if self.fmt == "json":
            self.write("\n]\n" if self.count else "[]\n")
        elif self.fmt == "junit":
            self.write("</testsuites>\n")
