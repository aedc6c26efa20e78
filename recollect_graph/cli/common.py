"""Helpers shared by the CLI command modules: scope/owner options, input files, opening."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from recollect_graph.cli.output import progress
from recollect_graph.errors import InvalidInput
from recollect_graph.services.kernel.validation import file_text, in_range

if TYPE_CHECKING:
    from recollect_graph.facade import Recollect


F = TypeVar("F", bound=Callable[..., Any])


def scope_option(fn: F) -> F:
    """Add ``--scope`` (env ``RECOLLECT_SCOPE``)."""
    return click.option(
        "--scope", envvar="RECOLLECT_SCOPE", show_envvar=True, help="Scope (tenant/workspace)."
    )(fn)


def _owner(help: str) -> Callable[[F], F]:
    return click.option("--owner", envvar="RECOLLECT_OWNER", show_envvar=True, help=help)


def owner_option(fn: F) -> F:
    """Add ``--owner`` (env ``RECOLLECT_OWNER``)."""
    return _owner("Owner of what is written.")(fn)


def reader_option(fn: F) -> F:
    """Add ``--owner`` (env ``RECOLLECT_OWNER``) to a read: who reads, for the access history."""
    return _owner("Who reads (recorded in the access history that recommend ranks from).")(fn)


def time_options(fn: F) -> F:
    """Add ``--as-of`` (record time) and ``--valid-at`` (valid time), ISO date-times."""
    fn = click.option(
        "--valid-at", metavar="ISO", help="Valid time: what was true at a moment (ISO date-time)."
    )(fn)
    return click.option(
        "--as-of", metavar="ISO", help="Record time: what was known at a past moment (ISO)."
    )(fn)


#: The largest ``--offset`` a list command takes.
MAX_OFFSET = 1_000_000_000


def page_options(default: int, most: int) -> Callable[[F], F]:
    """Add ``--offset`` and ``--limit`` to a list command (check them with :func:`page`).

    Every list command pages the same way: its rows in a stable order, the first ``--offset``
    skipped, then at most ``--limit``; out-of-range values exit 1 with one error line.
    """

    def deco(fn: F) -> F:
        fn = click.option(
            "--limit",
            type=int,
            default=default,
            show_default=True,
            help=f"At most this many (1-{most}).",
        )(fn)
        return click.option(
            "--offset",
            type=int,
            default=0,
            show_default=True,
            help="Rows to skip first (the next page starts at --offset + --limit).",
        )(fn)

    return deco


def page(offset: int, limit: int, most: int) -> None:
    """:class:`InvalidInput` unless ``0 <= offset <= MAX_OFFSET`` and ``1 <= limit <= most``."""
    in_range(offset, "--offset", 0, MAX_OFFSET)
    in_range(limit, "--limit", 1, most)


def need(value: str | None, flag: str, env: str | None = None) -> str:
    """``value`` when given; else the configured default; else :class:`InvalidInput`.

    ``--scope`` falls back to ``scope`` in a config file (the environment variable is already
    in ``value``: click reads it), ``--owner`` to ``owner`` there, else the OS user. A scope is
    never invented: with none configured, ``--scope`` stays required.
    """
    if value is None or not value.strip():
        default = configured_default(flag)
        if default:
            return default
        hint = f" (or set {env})" if env else ""
        if flag == "--scope":
            hint += " (or set a default: recollect-graph config set scope NAME)"
        raise InvalidInput(f"{flag} is required{hint}")
    return value


def configured_default(flag: str) -> str | None:
    """The config files' default for ``--scope`` / ``--owner`` (the OS user for an owner)."""
    from recollect_graph import config_file
    from recollect_graph.settings import os_user

    key = {"--scope": "scope", "--owner": "owner"}.get(flag)
    if key is None:
        return None
    value = config_file.layered().fields().get(config_file.KEYS[key])
    if value is None and key == "owner":
        return os_user()
    return str(value) if value is not None and str(value).strip() else None


def need_scope(scope: str | None) -> str:
    """The ``--scope`` value (or ``RECOLLECT_SCOPE``); else :class:`InvalidInput` naming both."""
    return need(scope, "--scope", "RECOLLECT_SCOPE")


def open_rg(as_json: bool) -> Recollect:
    """Open the database, with server start-up lines on stderr."""
    from recollect_graph.facade import Recollect

    return Recollect.open(progress=progress(as_json))


def read_input(path: str) -> str:
    """The text of a file, or of stdin for ``-``.

    Raises:
        InvalidInput: It cannot be read, or is not UTF-8 text (a NUL byte, another encoding).
    """
    try:
        if path == "-":
            buf = getattr(sys.stdin, "buffer", None)
            data = buf.read() if buf is not None else sys.stdin.read().encode("utf-8")
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as e:
        raise InvalidInput(f"cannot read {path}: {e.strerror or e}") from e
    return file_text(data, input_name(path), strict=True)


def input_name(path: str) -> str:
    """How error messages name an input path."""
    return "stdin" if path == "-" else path


def parse_json_items(text: str, source: str) -> list[Any]:
    """A JSON list (or one JSON value), or JSON Lines, as a list; else :class:`InvalidInput`."""
    if not text.strip():
        raise InvalidInput(f"{source}: no items (empty input)")
    try:
        data = json.loads(text)
    except RecursionError as e:
        raise InvalidInput(f"{source}: the JSON is nested too deeply") from e
    except json.JSONDecodeError as e:
        if text.lstrip().startswith("["):
            raise InvalidInput(
                f"{source}: not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})"
            ) from e
        data = []
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                data.append(json.loads(line))
            except RecursionError as re_:
                raise InvalidInput(f"{source}: line {n}: the JSON is nested too deeply") from re_
            except json.JSONDecodeError as le:
                raise InvalidInput(
                    f"{source}: line {n} is not valid JSON: {le.msg} (column {le.colno})"
                ) from le
    return data if isinstance(data, list) else [data]


def fail_missing(ids: list[str], what: str = "not found") -> None:
    """Exit 1 with one line when some ids were not found (after the result was printed)."""
    if ids:
        click.echo(f"Error: {what}: {', '.join(ids)}", err=True)
        sys.exit(1)


def short(text: str | None, n: int = 60) -> str:
    """One line of at most ``n`` characters."""
    flat = re.sub(r"\s+", " ", text or "").strip()
    return flat if len(flat) <= n else flat[: n - 3] + "..."
