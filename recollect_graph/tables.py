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
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

#: The widest a column gets; longer cells are cut.
MAX_WIDTH = 80
#: The narrowest a column of long cells is squeezed to when the table must fit a width.
MIN_WIDTH = 8
#: The most lines one cell wraps to when squeezed (the last ends in ``...`` when cut).
MAX_CELL_LINES = 3


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


def table(
    records: Iterable[Any], columns: Sequence[str] | None = None, *, width: int | None = None
) -> str:
    """Render records as a plain text table: a header, a rule, one line per record.

    Args:
        records: Mappings, pydantic models or dataclass instances.
        columns: The columns, in order (default: the first record's fields).
        width: The most characters a line may have (a terminal's width). The widest columns are
            narrowed first, to :data:`MIN_WIDTH` at least (or their widest cell, when narrower),
            headers and cells wrapped onto up to :data:`MAX_CELL_LINES` lines, and the gap
            between columns shrinks from two spaces to one when two do not fit. None: one line
            per record.

    Returns:
        The table, or ``(no rows)`` when there are no records.
    """
    rows = [as_row(r) for r in records]
    if not rows:
        return "(no rows)"
    cols = list(columns or rows[0].keys())
    cells = [[_cell(r.get(c)) for c in cols] for r in rows]
    longest = [max(len(row[i]) for row in cells) for i in range(len(cols))]
    widths = [min(max(len(c), n), MAX_WIDTH) for c, n in zip(cols, longest, strict=True)]
    gap = "  "
    if width is not None:
        floors = [min(w, max(min(n, MIN_WIDTH), 4)) for w, n in zip(widths, longest, strict=True)]
        if sum(widths) + 2 * (len(widths) - 1) > width:
            gap = " " if sum(floors) + 2 * (len(floors) - 1) > width else gap
            widths = fit(widths, floors, width, len(gap))
    lines: list[str] = []
    for n, block in enumerate((cols, *cells)):
        parts = [
            _wrap(v, w) if width is not None else [v[:w]]
            for v, w in zip(block, widths, strict=True)
        ]
        for k in range(max(len(p) for p in parts)):
            line = gap.join(
                (p[k] if k < len(p) else "").ljust(w) for p, w in zip(parts, widths, strict=True)
            )
            lines.append(line if k == 0 else line.rstrip())
        if n == 0:
            lines.append(gap.join("-" * w for w in widths))
    return "\n".join(lines)


def fit(widths: Sequence[int], floors: Sequence[int], total: int, gap: int = 2) -> list[int]:
    """Column widths narrowed, widest first, until a line (``gap`` between) fits ``total``.

    No column goes below its floor (nor grows): a table that cannot fit stays as narrow as the
    floors allow.
    """
    out = list(widths)
    excess = sum(out) + gap * (len(out) - 1) - total
    while excess > 0:
        i = max(range(len(out)), key=lambda k: out[k] - floors[k])
        if out[i] <= floors[i]:
            break
        out[i] -= 1
        excess -= 1
    return out


def _wrap(text: str, w: int) -> list[str]:
    if len(text) <= w:
        return [text]
    lines = textwrap.wrap(text, w, break_long_words=True, break_on_hyphens=False) or [""]
    if len(lines) > MAX_CELL_LINES:
        lines = lines[:MAX_CELL_LINES]
        last = lines[-1]
        lines[-1] = (last if len(last) <= w - 3 else last[: w - 3]) + "..."
    return lines


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
