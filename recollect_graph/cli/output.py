"""Shared CLI plumbing: ``--json``, tables, progress lines and one-line errors."""

from __future__ import annotations

import contextlib
import functools
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import click

from recollect_graph.errors import RecollectError
from recollect_graph.tables import table

__all__ = ["emit_json", "handle_errors", "json_option", "progress", "table"]

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
