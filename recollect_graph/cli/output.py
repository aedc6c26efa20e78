"""Shared CLI plumbing: ``--json``, tables, progress lines and one-line errors."""

from __future__ import annotations

import contextlib
import functools
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import click

from recollect_graph.errors import RecollectError

F = TypeVar("F", bound=Callable[..., Any])


def json_option(fn: F) -> F:
    """Add ``--json`` (machine-readable output) to a command."""
    return click.option(
        "--json", "as_json", is_flag=True, help="Print machine-readable JSON instead of text."
    )(fn)


def emit_json(data: Any) -> None:
    """Print ``data`` as JSON on stdout."""
    click.echo(json.dumps(data, indent=2, default=str))


def progress(as_json: bool) -> Callable[[str], None]:
    """A progress callback: lines on stderr (never mixed into ``--json`` stdout)."""

    def say(msg: str) -> None:
        click.echo(f"  {msg}", err=True)

    return say if not as_json or sys.stderr.isatty() else (lambda _m: None)


def table(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None) -> str:
    """Render rows as a plain text table."""
    if not rows:
        return "(no rows)"
    cols = list(columns or rows[0].keys())
    cells = [[_cell(r.get(c)) for c in cols] for r in rows]
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(cols)]
    widths = [min(w, 80) for w in widths]
    lines = ["  ".join(c.ljust(w) for c, w in zip(cols, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    for row in cells:
        lines.append("  ".join(v[:w].ljust(w) for v, w in zip(row, widths, strict=True)))
    return "\n".join(lines)


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, dict | list):
        return json.dumps(v, default=str)
    return str(v)


def handle_errors(fn: F) -> F:
    """Turn :class:`RecollectError` into one clear line on stderr and exit code 1."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except RecollectError as e:
            if kwargs.get("as_json"):
                stored = getattr(e, "stored", None)
                extra = {"stored": stored} if stored is not None else {}
                emit_json({"error": e.code, "message": str(e), **extra})
            click.echo(f"Error: {e}", err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


@contextlib.contextmanager
def stored_before_error(
    as_json: bool, describe: Callable[[], tuple[str, dict[str, Any]] | None]
) -> Iterator[None]:
    """Say what a batch command stored before a :class:`RecollectError` stopped it.

    ``describe()`` gives ``(line, data)`` (None: nothing was stored). The line goes to stdout
    (so the ``Error:`` line stays the last and only line on stderr); with ``--json`` the data is
    the error object's ``stored``. The error then goes on to :func:`handle_errors`.
    """
    try:
        yield
    except RecollectError as e:
        got = describe()
        if got is not None:
            line, data = got
            if as_json:
                e.stored = data  # type: ignore[attr-defined]
            else:
                click.echo(line)
        raise
