"""Strict, safe YAML for every YAML format of the package (FORMATS.md: strict YAML): its one public face.

Reading a stream (:func:`read_each_document`, :func:`read_documents`) gives our own
nodes (:class:`YMap`, :class:`YSeq`, :class:`YScalar`, each with its line), never
a coerced value; the ``as_*`` functions read a format's values from them with an
error at the node's line; :func:`dump` is the one writer.  Inside:

- :mod:`.strict`: the reader of PyYAML's events (limits, tags, keys, aliases, errors), its nodes, and how a plain scalar resolves;
- :mod:`.cut`: the cut of a stream into documents as it is read;
- :mod:`.values`: a format's values read from the nodes, and the writer.

Note: ``import yaml`` inside this subpackage is PyYAML (imports are absolute).
"""

from .cut import MAX_DOCUMENT_CHARS, Piece, iter_pieces
from .strict import (
    MAX_DEPTH,
    MAX_NODES,
    TAB_WORDS,
    Document,
    YMap,
    YNode,
    YScalar,
    YSeq,
    clean_text,
    one_document,
    read_documents,
    read_each_document,
)
from .values import (
    KNOWN_CARDS,
    KNOWN_CELLS,
    Flow,
    FlowList,
    Quoted,
    as_bool,
    as_card,
    as_cell,
    as_choice,
    as_collection,
    as_deal,
    as_int,
    as_text,
    dump,
)

__all__ = [
    "MAX_DEPTH",
    "MAX_DOCUMENT_CHARS",
    "MAX_NODES",
    "TAB_WORDS",
    "Document",
    "Flow",
    "FlowList",
    "KNOWN_CARDS",
    "KNOWN_CELLS",
    "Piece",
    "Quoted",
    "YMap",
    "YNode",
    "YScalar",
    "YSeq",
    "as_bool",
    "as_card",
    "as_cell",
    "as_choice",
    "as_collection",
    "as_deal",
    "as_int",
    "as_text",
    "clean_text",
    "dump",
    "iter_pieces",
    "one_document",
    "read_documents",
    "read_each_document",
]
