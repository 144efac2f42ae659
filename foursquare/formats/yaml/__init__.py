"""Strict, safe YAML for every YAML format of the package (FORMATS.md: strict YAML)."""

from .cut import MAX_DOCUMENT_CHARS, Piece, each_line, iter_documents, iter_pieces, split_documents
from .nodes import ALLOWED_TAGS, YMap, YNode, YScalar, YSeq
from .strict import (
    MAX_DEPTH,
    MAX_NODES,
    TAB_WORDS,
    Document,
    clean_text,
    decode,
    read_documents,
    read_each_document,
)
from .values import (
    MAX_DIGITS,
    as_bool,
    as_choice,
    as_deal,
    as_int,
    as_list,
    as_map,
    as_text,
    unknown_keys,
)
from .write import Flow, FlowList, Quoted, dump

__all__ = [
    "ALLOWED_TAGS",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_DOCUMENT_CHARS",
    "MAX_NODES",
    "TAB_WORDS",
    "Document",
    "Flow",
    "FlowList",
    "Piece",
    "Quoted",
    "YMap",
    "YNode",
    "YScalar",
    "YSeq",
    "as_bool",
    "as_choice",
    "as_deal",
    "as_int",
    "as_list",
    "as_map",
    "as_text",
    "clean_text",
    "decode",
    "dump",
    "each_line",
    "iter_documents",
    "iter_pieces",
    "read_documents",
    "read_each_document",
    "split_documents",
    "unknown_keys",
]
