"""Records as plain-text tables (the CLI's and the notebooks') and as pandas DataFrames.

A record is a mapping, a pydantic model or a dataclass instance; each becomes one row whose
columns are its fields.

Example:
    >>> print(table([{"id": "e1", "score": 0.875}, {"id": "e2", "score": 0.125}]))
    id  score
    --  -----
    e1  0.875
    e2  0.125
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

#: The widest a column gets; longer cells are cut.
MAX_WIDTH = 80


def as_row(record: Any) -> dict[str, Any]:
    """One record as a dict: a mapping as it is, a pydantic model or a dataclass by its fields.

    Raises:
        TypeError: ``record`` is none of those.
    """
    if isinstance(record, Mapping):
        return dict(record)
    if hasattr(record, "model_dump"):
        return dict(record.model_dump())
    if dataclasses.is_dataclass(record) and not isinstance(record, type):
        return {f.name: getattr(record, f.name) for f in dataclasses.fields(record)}
    raise TypeError(f"not a record (a mapping, pydantic model or dataclass): {type(record)!r}")


def table(records: Iterable[Any], columns: Sequence[str] | None = None) -> str:
    """Render records as a plain text table: a header, a rule, one line per record.

    Args:
        records: Mappings, pydantic models or dataclass instances.
        columns: The columns, in order (default: the first record's fields).

    Returns:
        The table, or ``(no rows)`` when there are no records.
    """
    rows = [as_row(r) for r in records]
    if not rows:
        return "(no rows)"
    cols = list(columns or rows[0].keys())
    cells = [[_cell(r.get(c)) for c in cols] for r in rows]
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(cols)]
    widths = [min(w, MAX_WIDTH) for w in widths]
    lines = ["  ".join(c.ljust(w) for c, w in zip(cols, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    for row in cells:
        lines.append("  ".join(v[:w].ljust(w) for v, w in zip(row, widths, strict=True)))
    return "\n".join(lines)


def flat_row(record: Any, *, sep: str = ".") -> dict[str, Any]:
    """One record as a flat dict: nested records and mappings become ``parent.child`` columns.

    Example:
        >>> flat_row({"rank": 1, "signals": {"semantic": 0.5}, "entry": {"id": "e1"}})
        {'rank': 1, 'signals.semantic': 0.5, 'entry.id': 'e1'}
    """
    out: dict[str, Any] = {}
    for key, value in as_row(record).items():
        if isinstance(value, Mapping) and value:
            out.update({f"{key}{sep}{k}": v for k, v in value.items()})
        else:
            out[key] = value
    return out


def to_pandas(
    records: Iterable[Any], columns: Sequence[str] | None = None, *, flatten: bool = True
) -> Any:
    """Records as a ``pandas.DataFrame`` (one row per record, one column per field).

    Args:
        records: Mappings, pydantic models or dataclass instances.
        columns: The columns to keep, in order (default: all).
        flatten: Nested records and mappings (a hit's ``entry`` and ``signals``) become columns
            of their own (``entry.title``, ``signals.semantic``); otherwise one column holds each.

    Raises:
        ImportError: pandas is not installed (it comes with the ``notebooks`` extra).
    """
    try:
        pandas = importlib.import_module("pandas")
    except ImportError as e:
        raise ImportError(
            "to_pandas needs pandas: pip install 'recollect-graph[notebooks]' (or pandas)"
        ) from e
    rows = [flat_row(r) if flatten else as_row(r) for r in records]
    return pandas.DataFrame(rows, columns=list(columns) if columns else None)


class Records(list[T]):
    """A list of records (hits, entries, operations, query rows) that makes DataFrames of itself.

    It is a plain ``list`` in every other way.

    Example:
        >>> hits = rg.search("how is Neo4j started?", scope_id="demo")  # doctest: +SKIP
        >>> hits.df[["rank", "score", "signals.semantic", "entry.caption"]]  # doctest: +SKIP
    """

    def to_pandas(self, columns: Sequence[str] | None = None, *, flatten: bool = True) -> Any:
        """These records as a ``pandas.DataFrame`` (see :func:`to_pandas`)."""
        return to_pandas(self, columns, flatten=flatten)

    @property
    def df(self) -> Any:
        """``self.to_pandas()``: every field a column, nested records flattened."""
        return self.to_pandas()


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, dict | list):
        return json.dumps(v, default=str)
    return str(v)
