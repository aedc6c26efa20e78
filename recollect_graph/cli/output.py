"""Shared CLI plumbing: ``--json``, tables, progress lines and one-line errors."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

import click

from recollect_graph import tables
from recollect_graph.errors import RecollectError

__all__ = ["JsonErrorsGroup", "emit_json", "handle_errors", "json_option", "progress", "table"]

F = TypeVar("F", bound=Callable[..., Any])


def json_option(fn: F) -> F:
    """Add ``--json`` (machine-readable output) to a command."""
    return click.option(
        "--json", "as_json", is_flag=True, help="Print machine-readable JSON instead of text."
    )(fn)


def emit_json(data: Any) -> None:
    """Print ``data`` as JSON on stdout."""
    click.echo(json.dumps(data, indent=2, default=str))


def terminal_width() -> int | None:
    """The width tables must fit: ``$COLUMNS`` when set, else the terminal's when stdout is one.

    None (piped, no ``COLUMNS``): tables keep one line per record, for ``grep`` and ``cut``.
    """
    raw = os.environ.get("COLUMNS", "").strip()
    if raw.isdigit() and int(raw) > 0:
        return int(raw)
    try:
        if not sys.stdout.isatty():
            return None
    except (AttributeError, ValueError):  # a replaced or closed stdout
        return None
    return shutil.get_terminal_size().columns


def table(records: Iterable[Any], columns: Sequence[str] | None = None) -> str:
    """:func:`recollect_graph.tables.table`, fitted to :func:`terminal_width`."""
    return tables.table(records, columns, width=terminal_width())


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


class JsonErrorsGroup(click.Group):
    """The root group: with ``--json``, click's own errors are the error object too.

    A bad option, a value outside a ``click.Choice``, a missing argument:
    ``{"error": "usage", "message": ...}`` on stdout, click's usage text on stderr, exit code 2
    (as without ``--json``).
    """

    def main(  # type: ignore[override]
        self,
        args: list[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the CLI (see :meth:`click.Group.main`)."""
        argv = list(sys.argv[1:] if args is None else args)
        if not standalone_mode or "--json" not in argv:
            return super().main(argv, prog_name, complete_var, standalone_mode, **extra)
        try:
            rv = super().main(argv, prog_name, complete_var, standalone_mode=False, **extra)
        except click.ClickException as e:
            emit_json({"error": "usage", "message": e.format_message()})
            e.show()
            sys.exit(e.exit_code)
        except click.Abort:
            emit_json({"error": "aborted", "message": "aborted"})
            click.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)
