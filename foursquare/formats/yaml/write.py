"""The one writer of YAML (FORMATS.md): :func:`dump`, never a string split across lines.

It uses :func:`yaml.dump` with a safe dumper that quotes every card and cell
(:class:`Quoted`) and can put small mappings and lists on one line (:class:`Flow`,
:class:`FlowList`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import yaml

from .nodes import CORE


class Quoted(str):
    """A string always written in double quotes (cards, cells, move strings)."""

    __slots__ = ()


class Flow(dict[str, Any]):
    """A mapping written on one line: ``{cards: ["5C"], face: up}``."""


class FlowList(list[Any]):
    """A list written on one line: ``["d4", "e4"]``."""


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True

    # A long line breaks between the entries of a flow list, never inside a string:
    # PyYAML would fold a scalar at a space past the width ("4H\ <newline> \ b4"),
    # which is valid YAML but breaks grep, hand edits and diffs (issue 16).
    def write_double_quoted(self, text: str, split: bool = True) -> None:
        super().write_double_quoted(text, split=False)

    def write_single_quoted(self, text: str, split: bool = True) -> None:
        super().write_single_quoted(text, split=False)

    def write_plain(self, text: str, split: bool = True) -> None:
        super().write_plain(text, split=False)


#: How each kind of value is written: double-quoted text, mappings and lists in block
#: style or (:class:`Flow`, :class:`FlowList`) on one line, ``null``.
_REPRESENTERS: tuple[tuple[type, Callable[[yaml.SafeDumper, Any], yaml.Node]], ...] = (
    (Quoted, lambda dumper, data: dumper.represent_scalar(CORE + "str", str(data), style='"')),
    (Flow, lambda dumper, data: dumper.represent_mapping(CORE + "map", data.items(), flow_style=True)),
    (FlowList, lambda dumper, data: dumper.represent_sequence(CORE + "seq", data, flow_style=True)),
    (dict, lambda dumper, data: dumper.represent_mapping(CORE + "map", data.items(), flow_style=False)),
    (list, lambda dumper, data: dumper.represent_sequence(CORE + "seq", data, flow_style=False)),
    (type(None), lambda dumper, data: dumper.represent_scalar(CORE + "null", "null")),
)
for _kind, _represent in _REPRESENTERS:
    _Dumper.add_representer(_kind, _represent)


def dump(data: Mapping[str, Any]) -> str:
    """One YAML document: ``dict``/``list`` in block style, :class:`Flow`/:class:`FlowList`
    on one line, :class:`Quoted` in double quotes, keys in insertion order.  A line
    past 72 characters breaks between list entries (no line of a file or of the
    prompt is wider than 80 columns), never inside a string: each
    card or move is one unbroken string.

    :param data: plain values (str, int, bool, None, lists, mappings).
    :returns: the text, ending with a newline.
    """
    return yaml.dump(
        data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=72, default_flow_style=False
    )
