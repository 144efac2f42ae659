"""The one writer of YAML (FORMATS.md): :func:`dump`, never a string split across lines.

It uses :func:`yaml.dump` with a safe dumper that quotes every card and cell
(:class:`Quoted`) and can put small mappings and lists on one line (:class:`Flow`,
:class:`FlowList`).
"""

from __future__ import annotations

from collections.abc import Mapping
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


def _represent_quoted(dumper: yaml.SafeDumper, data: Quoted) -> yaml.Node:
    return dumper.represent_scalar(CORE + "str", str(data), style='"')


def _represent_flow(dumper: yaml.SafeDumper, data: Flow) -> yaml.Node:
    return dumper.represent_mapping(CORE + "map", data.items(), flow_style=True)


def _represent_block(dumper: yaml.SafeDumper, data: dict[Any, Any]) -> yaml.Node:
    return dumper.represent_mapping(CORE + "map", data.items(), flow_style=False)


def _represent_flow_list(dumper: yaml.SafeDumper, data: FlowList) -> yaml.Node:
    return dumper.represent_sequence(CORE + "seq", data, flow_style=True)


def _represent_block_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    return dumper.represent_sequence(CORE + "seq", data, flow_style=False)


def _represent_none(dumper: yaml.SafeDumper, data: None) -> yaml.Node:
    return dumper.represent_scalar(CORE + "null", "null")


_Dumper.add_representer(Quoted, _represent_quoted)
_Dumper.add_representer(Flow, _represent_flow)
_Dumper.add_representer(FlowList, _represent_flow_list)
_Dumper.add_representer(dict, _represent_block)
_Dumper.add_representer(list, _represent_block_list)
_Dumper.add_representer(type(None), _represent_none)


def dump(data: Mapping[str, Any]) -> str:
    """One YAML document: ``dict``/``list`` in block style, :class:`Flow`/:class:`FlowList`
    on one line, :class:`Quoted` in double quotes, keys in insertion order.  A line
    past 100 characters breaks between list entries, never inside a string: each
    card or move is one unbroken string.

    :param data: plain values (str, int, bool, None, lists, mappings).
    :returns: the text, ending with a newline.
    """
    return yaml.dump(
        data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100, default_flow_style=False
    )
