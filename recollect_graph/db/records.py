"""Driver records as plain Python values: fast for vectors, JSON-friendly for analysts' rows."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import neo4j
import neo4j.graph
import neo4j.time

#: One result row: column name -> value.
Row = dict[str, Any]


class _GraphValue(Exception):
    """A node, relationship or path: let the driver convert the record."""


#: Values that need no walking: by far most of what a statement returns.
_SCALARS = frozenset({str, int, float, bool, type(None)})
#: Graph values: a row holding one is converted by the driver's own ``Record.data()``.
_GRAPH_TYPES = (neo4j.graph.Node, neo4j.graph.Relationship, neo4j.graph.Path)


def _fast(v: Any) -> Any:
    t = type(v)
    if t in _SCALARS:
        return v
    if t is list:
        if v and type(v[0]) is float:
            return v  # a vector: no need to walk 384 floats
        return [x if type(x) in _SCALARS else _fast(x) for x in v]
    if t is dict:
        return {k: x if type(x) in _SCALARS else _fast(x) for k, x in v.items()}
    if isinstance(v, _GRAPH_TYPES):
        raise _GraphValue
    return v


def record_data(record: neo4j.Record) -> Row:
    """``record.data()``, without walking vectors element by element (10x faster on vectors).

    A record is a tuple of its values: they are zipped with its keys directly, and only values
    that are not plain scalars are looked at (a search reads hundreds of rows per call).
    """
    try:
        return {
            k: v if type(v) in _SCALARS else _fast(v)
            for k, v in zip(record.keys(), tuple.__iter__(record), strict=True)
        }
    except _GraphValue:
        return record.data()


def plain_row(row: Mapping[str, Any]) -> Row:
    """Make driver values JSON-friendly (temporal values as ISO strings)."""
    return {k: _plain_value(v) for k, v in row.items()}


def _plain_value(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _plain_value(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain_value(x) for x in v]
    if isinstance(v, neo4j.time.DateTime | neo4j.time.Date | neo4j.time.Time | neo4j.time.Duration):
        return v.iso_format()
    return v
