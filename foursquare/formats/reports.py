"""The machine formats of ``foursquare validate`` (FORMATS.md "validate"; docs/guide/ci.md "Checking
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
from typing import IO, Any

from ..errors import RUNNER_COMMAND, RUNNER_COMMAND_QUOTED

#: Writes one piece of text, as it is.
Write = Callable[[str], None]
#: The characters XML 1.0 cannot hold even escaped (control characters but tab, LF, CR).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


#: A workflow command's opening ``::`` at the start of a line (after white space, which
#: the runner trims; .NET ends a line at CR, LF or both).
_LINE_COMMAND = re.compile(r"(\A|[\r\n])(\s*):")


def inert(text: str) -> str:
    """``text`` as GitHub's runner reads no workflow command in it: ``##[`` anywhere is
    written ``##\\x5b``, and a ``::`` that starts a line ``\\x3a:``.  What the
    ``github`` format of ``validate`` prints besides its own annotations goes through
    this, so that text from the files checked cannot stop, forge or mask annotations.

    >>> print(inert("::error::x.yaml: 1 game"), inert("a ##[stop-commands]t"))
    \\x3a:error::x.yaml: 1 game a ##\\x5bstop-commands]t
    """
    return _LINE_COMMAND.sub(r"\1\2\\x3a", text.replace(RUNNER_COMMAND, RUNNER_COMMAND_QUOTED))


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


#: What the runner's escaping leaves raw and a terminal would obey: the C0 controls but
#: tab, LF and CR (escaped), DEL and the C1 controls; and what is not UTF-8 (a lone surrogate).
_UNSHOWABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def github_command(result: dict[str, Any], error: dict[str, Any], path: str | None = None) -> str:
    """The ``::error file=F,line=L,title=T::message`` workflow command of one error of
    a game's (or a file's) JSON object; ``line`` is left out when no line applies.
    ``path``: the file's path as given, which GitHub needs to place the annotation
    (the object's ``file`` is quoted as a shell would quote it).  Every field is
    escaped as GitHub's runner unescapes it (:func:`escape_property`,
    :func:`escape_data`), so that a name with a newline, ``%``, ``:`` or ``,`` comes
    back as the real path; a name that is not UTF-8, which no annotation can hold, or
    that holds a control character a terminal would obey (an escape, BEL, DEL), is
    the object's quoted ``file``."""
    if path is not None and _UNSHOWABLE.search(path):
        path = None
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

    A JUnit testsuite is written when its file ends (its counts come first): until
    then its testcases wait in a temporary file (in memory while small), so that
    memory does not grow with the games of a file.
    """

    def __init__(self, fmt: str, write: Write) -> None:
        self.fmt = fmt
        self.write = write
        self.count = 0
        self._begun = self._ended = False
        self._cases: IO[str] | None = None
        self._tests = self._failures = self._errors = 0

    def begin(self) -> None:
        """Before the first game (once: :meth:`incomplete` and :meth:`end` begin a report
        not begun, when the run is cut short before its first game)."""
        if self._begun:
            return
        self._begun = True
        if self.fmt == "junit":
            self.write('<?xml version="1.0" encoding="utf-8"?>\n<testsuites name="foursquare validate">\n')

    def game(self, result: dict[str, Any], path: str | None = None) -> None:
        """One game's JSON object (a file not read game by game: ``game`` null)."""
        self.count += 1
        if self.fmt == "json":
            self.write(("[\n" if self.count == 1 else ",\n") + textwrap.indent(json.dumps(result, indent=2), "  "))
        elif self.fmt == "json-lines":
            self.write(json.dumps(result) + "\n")
        elif self.fmt == "github":
            for error in result["errors"]:
                self.write(github_command(result, error, path) + "\n")
        elif self.fmt == "junit":
            name = "file" if result["game"] is None else f"game {result['game']}"
            self._case(result["file"], name, None if result["valid"] else [e["text"] for e in result["errors"]])

    def _case(self, file: str, name: str, failure: list[str] | None, kind: str = "failure") -> None:
        case = ET.Element("testcase", classname=_xml_text(file), name=name)
        if failure is not None:
            self._failures += kind == "failure"
            self._errors += kind == "error"
            texts = [_xml_text(text) for text in failure]
            why = "invalid" if kind == "failure" else "incomplete"
            element = ET.SubElement(case, kind, message=texts[0] if texts else why, type=why)
            element.text = "\n".join(texts)
        ET.indent(case, space="  ", level=2)
        if self._cases is None:
            import tempfile  # here: the command starts (and can report) before it loads

            self._cases = tempfile.SpooledTemporaryFile(max_size=1024 * 1024, mode="w+", encoding="utf-8")
        self._cases.write("    " + ET.tostring(case, encoding="unicode") + "\n")
        self._tests += 1

    def file_end(self, shown: str) -> None:
        """After the last game of a file (``shown``: its name as messages show it)."""
        if self.fmt != "junit" or self._cases is None:
            return
        suite = ET.Element(
            "testsuite", name=_xml_text(shown), tests=str(self._tests), failures=str(self._failures), errors=str(self._errors)
        )
        opening = ET.tostring(suite, encoding="unicode").removesuffix(" />")
        cases, self._cases, self._tests, self._failures, self._errors = self._cases, None, 0, 0, 0
        self.write(f"  {opening}>\n")
        cases.seek(0)
        while chunk := cases.read(1024 * 1024):
            self.write(chunk)
        cases.close()
        self.write("  </testsuite>\n")

    def incomplete(self, file: str | None, message: str) -> None:
        """Say in the format itself that the report stops short (the run was interrupted):
        an object of no game (``game`` null, invalid, ``message`` its one error), a
        workflow command, or a JUnit testcase ``incomplete`` with an ``error``.  Nothing
        once the report has ended (it was whole when the run stopped)."""
        if self._ended:
            return
        self.begin()
        if self.fmt == "junit":
            self._case(file or "foursquare validate", "incomplete", [message], "error")
            self.file_end(file or "foursquare validate")
        elif self.fmt == "github":
            self.write(f"::error title=foursquare validate::{escape_data(message)}\n")
        elif self.fmt in ("json", "json-lines"):
            error = {"line": None, "move": None, "message": message, "text": message}
            self.game({"file": file, "game": None, "line": None, "valid": False, "errors": [error],
                       "status": None, "reason": None, "score": None, "moves": 0})  # fmt: skip

    def end(self) -> None:
        """After the last file (also when the run is cut short: a JSON array is closed).
        Once: a second call writes nothing."""
        if self._ended:
            return
        self.begin()
        if self.fmt == "json":
            self.write("\n]\n" if self.count else "[]\n")
        elif self.fmt == "junit":
            self.write("</testsuites>\n")
        self._ended = True
