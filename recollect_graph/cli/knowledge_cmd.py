"""Knowledge commands: remember, forget, connect, recent, search, get.

The history commands (restore, undo, outcome, operations) are :mod:`.history_cmd`; ``COMMANDS``
holds both.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import click

from recollect_graph.cli.common import (
    fail_missing,
    input_name,
    need,
    need_scope,
    open_rg,
    owner_option,
    page,
    page_options,
    parse_json_items,
    read_input,
    reader_option,
    scope_option,
    short,
    time_options,
)
from recollect_graph.cli.history_cmd import operations_cmd, outcome_cmd, restore_cmd, undo_cmd
from recollect_graph.cli.output import (
    emit_json,
    handle_errors,
    json_option,
    stored_before_error,
    table,
)
from recollect_graph.errors import EntryNotFound, InvalidInput
from recollect_graph.vocabulary import ENTRY_TYPES, RELATIONS, SEARCH_KINDS, SOURCE_TYPES, SOURCES

if TYPE_CHECKING:
    from recollect_graph.facade import Recollect
    from recollect_graph.models import Entry


def _entry_row(e: Entry) -> dict[str, Any]:
    return {
        "created": e.created_at.strftime("%Y-%m-%d %H:%M"),
        "type": e.entry_type,
        "strength": f"{e.strength:.3f}" if e.strength is not None else "",
        "text": short(e.title or e.content),
        "id": e.id[:8],
    }


def _describe(e: Entry) -> str:
    skip = {"content", "content_hash", "created", "context_hints"}
    fields = e.model_dump(mode="json", exclude=skip, exclude_none=True)
    lines = [f"{k:<18} {v}" for k, v in fields.items() if v not in ([], {}, "")]
    return "\n".join([*lines, "content:", *(f"  {line}" for line in e.content.splitlines())])


# -- remember ----------------------------------------------------------------------------------
def _remember_opts(**given: Any) -> dict[str, Any]:
    """Options the user set, as :meth:`Recollect.remember` keywords."""
    meta = given.pop("metadata")
    if meta is not None:
        try:
            parsed = json.loads(meta)
        except json.JSONDecodeError as e:
            raise InvalidInput(f"--metadata is not valid JSON: {e.msg}") from e
        except RecursionError as e:
            raise InvalidInput("--metadata is nested too deeply") from e
        if not isinstance(parsed, dict):
            raise InvalidInput("--metadata must be a JSON object")
        given["metadata"] = parsed
    given["tags"] = list(given["tags"]) or None
    return {k: v for k, v in given.items() if v is not None and v is not False}


def _file_items(path: str, defaults: dict[str, Any]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for i, raw in enumerate(parse_json_items(read_input(path), input_name(path))):
        if isinstance(raw, str):
            raw = {"content": raw}
        if not isinstance(raw, dict):
            raise InvalidInput(f"{input_name(path)}: item {i} must be a JSON object or a string")
        items.append({**defaults, **raw})
    return items


def _remember_many(
    rg: Recollect, items: list[dict[str, Any]], scope: str, owner: str, as_json: bool
) -> list[Entry]:
    done = 0

    def stored() -> tuple[str, dict[str, Any]] | None:
        if not done:
            return None
        line = f"remembered {done} of {len(items)} entries in scope {scope} before the error"
        return line, {"entries": done, "of": len(items), "scope_id": scope}

    with stored_before_error(as_json, stored):
        if not sys.stderr.isatty():

            def count(n: int, _total: int) -> None:
                nonlocal done
                done = n

            return rg.remember_many(items, scope_id=scope, owner_id=owner, progress=count)
        with click.progressbar(length=len(items), label="remembering", file=sys.stderr) as bar:

            def tick(n: int, _total: int) -> None:
                nonlocal done
                done = n
                bar.update(n - bar.pos)

            return rg.remember_many(items, scope_id=scope, owner_id=owner, progress=tick)


@click.command("remember")
@click.argument("content", required=False)
@click.option("--file", "file", metavar="PATH", help="JSON list or JSON Lines ('-': stdin).")
@scope_option
@owner_option
@click.option("--type", "entry_type", type=click.Choice(ENTRY_TYPES), help="Entry type.")
@click.option("--auto-classify", is_flag=True, help="Infer the type from the content.")
@click.option("--tag", "tags", multiple=True, help="A tag (repeatable).")
@click.option("--title", help="Title (unique per scope).")
@click.option("--summary", help="Short summary.")
@click.option("--source", type=click.Choice(SOURCES), help="Who stated it.")
@click.option("--source-type", type=click.Choice(SOURCE_TYPES), help="How it was learned.")
@click.option("--source-id", help="External id; the same source id is the same entry.")
@click.option("--metadata", metavar="JSON", help="A JSON object stored with the entry.")
@click.option("--confidence", type=float, help="Confidence 0-1 (default 1).")
@click.option("--half-life", "half_life_days", type=float, help="Half-life in days (default 7).")
@click.option("--pinned", is_flag=True, help="Never decays.")
@click.option("--force", is_flag=True, help="Store a new entry even if the content exists.")
@click.option(
    "--redact", is_flag=True, help="Replace secrets (tokens, keys, passwords) by [REDACTED:kind]."
)
@json_option
@handle_errors
def remember_cmd(
    content: str | None,
    file: str | None,
    scope: str | None,
    owner: str | None,
    as_json: bool,
    **opts: Any,
) -> None:
    """Store an entry (CONTENT, '-' for stdin), or many with --file.

    Storing the same content twice in a scope returns the first entry. With --file, every
    item is a JSON object of remember's fields (content, entry_type, tags, title, ...) or a
    string; the options given here apply to each item that does not set that field.

    \b
    Example:
      recollect-graph remember "We chose Vite over webpack" --scope app --owner kai --tag build
      recollect-graph remember --file notes.jsonl --scope app --owner kai --json
    """
    scope = need(scope, "--scope", "RECOLLECT_SCOPE")
    owner = need(owner, "--owner", "RECOLLECT_OWNER")
    defaults = _remember_opts(**opts)
    if (content is None) == (file is None):
        raise InvalidInput("give either CONTENT or --file (exactly one)")
    if file is not None:
        items = _file_items(file, defaults)
        with open_rg(as_json) as rg:
            entries = _remember_many(rg, items, scope, owner, as_json)
        if as_json:
            emit_json([e.model_dump(mode="json") for e in entries])
            return
        new = sum(1 for e in entries if e.created)
        click.echo(f"remembered {len(entries)} entries ({new} new) in scope {scope}")
        return
    text = sys.stdin.read() if content == "-" else content
    if not text or not text.strip():
        raise InvalidInput("CONTENT is empty")
    with open_rg(as_json) as rg:
        entry = rg.remember(text, scope_id=scope, owner_id=owner, **defaults)
    if as_json:
        emit_json(entry.model_dump(mode="json"))
    else:
        state = "remembered" if entry.created is not False else "already remembered"
        click.echo(f"{state} {entry.id} ({entry.entry_type})")


# -- forget, connect ----------------------------------------------------------------------------
@click.command("forget")
@click.argument("entry_id", metavar="ID")
@scope_option
@json_option
@handle_errors
def forget_cmd(entry_id: str, scope: str | None, as_json: bool) -> None:
    """Hard-delete an entry and its edges (logged; undo with `undo OPERATION_ID`).

    \b
    Example:
      recollect-graph forget 3f2a... --scope app --json
    """
    scope = need_scope(scope)
    with open_rg(as_json) as rg:
        entry = rg.forget(entry_id, scope_id=scope)
        ops = rg.operations(entry.scope_id, limit=20)
    op_id = next((o.id for o in ops if o.kind == "forget" and entry.id in o.entry_ids), None)
    if as_json:
        emit_json({"entry": entry.model_dump(mode="json"), "operation_id": op_id})
    else:
        click.echo(f"forgot {entry.id}; undo with: recollect-graph undo {op_id}")


@click.command("connect")
@click.argument("source_id", metavar="SOURCE")
@click.argument("target_id", metavar="TARGET")
@click.argument("relation", metavar="RELATION", type=click.Choice(RELATIONS, case_sensitive=False))
@click.option("--weight", type=float, default=1.0, show_default=True, help="Edge weight 0-1.")
@click.option("--reason", help="Why they are connected.")
@scope_option
@json_option
@handle_errors
def connect_cmd(
    source_id: str,
    target_id: str,
    relation: str,
    weight: float,
    reason: str | None,
    scope: str | None,
    as_json: bool,
) -> None:
    """Connect two entries of one scope with a typed edge (idempotent).

    RELATION is one of: leads_to, supports, contradicts, derived_from, supersedes, related_to,
    references, depends_on, part_of, causes.

    \b
    Example:
      recollect-graph connect 3f2a... 9b1c... supports --reason "benchmark" --scope app
    """
    scope = need_scope(scope)
    with open_rg(as_json) as rg:
        edge = rg.connect(
            source_id, target_id, relation, weight=weight, reason=reason, scope_id=scope
        )
    if as_json:
        emit_json(edge.model_dump(mode="json"))
    else:
        what = "connected" if edge.created else "already connected"
        click.echo(f"{what}: {edge.source_id} -[{edge.relation} {edge.weight}]-> {edge.target_id}")


@click.command("get")
@click.argument("entry_ids", metavar="ID...", nargs=-1, required=True)
@scope_option
@json_option
@handle_errors
def get_cmd(entry_ids: tuple[str, ...], scope: str | None, as_json: bool) -> None:
    """Show entries by id. Exit code 1 when an id was not found (with --json, a not_found error).

    \b
    Example:
      recollect-graph get 3f2a... 9b1c... --scope app --json
    """
    scope = need_scope(scope)
    with open_rg(as_json) as rg:
        entries = rg.get_many(list(entry_ids), scope_id=scope)
    found = {e.id for e in entries}
    missing = [i for i in dict.fromkeys(entry_ids) if i not in found]
    if as_json:
        if missing:
            raise EntryNotFound(missing[0], scope_id=scope)
        emit_json([e.model_dump(mode="json") for e in entries])
    else:
        click.echo("\n\n".join(_describe(e) for e in entries) or "(no entries)")
    fail_missing(missing)


@click.command("recent")
@scope_option
@page_options(20, 10_000)
@time_options
@json_option
@handle_errors
def recent_cmd(
    scope: str | None,
    offset: int,
    limit: int,
    as_of: str | None,
    valid_at: str | None,
    as_json: bool,
) -> None:
    """List the newest current entries of a scope.

    A page, newest first: --offset skipped, then at most --limit.

    \b
    Example:
      recollect-graph recent --scope app --limit 5
      recollect-graph recent --scope app --offset 5 --limit 5
      recollect-graph recent --scope app --valid-at 2026-01-15 --as-of 2026-02-01
    """
    scope = need(scope, "--scope", "RECOLLECT_SCOPE")
    page(offset, limit, 10_000)
    with open_rg(as_json) as rg:
        entries = rg.recent(scope, limit=limit, offset=offset, as_of=as_of, valid_at=valid_at)
    if as_json:
        emit_json([e.model_dump(mode="json") for e in entries])
    else:
        click.echo(table([_entry_row(e) for e in entries]))


@click.command("search")
@click.argument("query")
@scope_option
@reader_option
@click.option("--limit", default=10, show_default=True, help="Maximum hits (1-1000).")
@click.option("--min-score", default=0.0, show_default=True, help="Drop hits scoring lower.")
@click.option(
    "--type",
    "entry_types",
    multiple=True,
    type=click.Choice(ENTRY_TYPES),
    help="Keep this entry type (repeatable).",
)
@click.option("--tag", "tags", multiple=True, help="Keep entries with this tag (repeatable).")
@click.option(
    "--kind",
    "kinds",
    multiple=True,
    type=click.Choice(SEARCH_KINDS),
    help="Keep hits of this kind: entry, turn or chunk (repeatable; default all).",
)
@time_options
@click.option("--include-superseded", is_flag=True, help="Also return retired entries.")
@click.option("--include-deleted", is_flag=True, help="Also return soft-deleted entries.")
@click.option("--hops", default=1, show_default=True, help="Graph expansion depth (0-3).")
@json_option
@handle_errors
def search_cmd(
    query: str,
    scope: str | None,
    owner: str | None,
    limit: int,
    min_score: float,
    entry_types: tuple[str, ...],
    tags: tuple[str, ...],
    kinds: tuple[str, ...],
    as_of: str | None,
    valid_at: str | None,
    include_superseded: bool,
    include_deleted: bool,
    hops: int,
    as_json: bool,
) -> None:
    """Hybrid search (meaning, keywords, graph, lifecycle) with a per-signal breakdown.

    One ranked list of entries, conversation turns and document chunks; each hit says its kind
    and where it came from (document and heading for a chunk, session for a turn). Only hits
    above the relevance floor come back (RECOLLECT_SEARCH_FLOOR, docs/search.md): a search
    about something the scope never mentions returns few or no hits.

    \b
    Example:
      recollect-graph search "build tool decision" --scope app --type decision --json
      recollect-graph search "who was on call" --scope app --valid-at 2026-03-01
      recollect-graph search "retry policy" --scope app --kind chunk --json
    """
    scope = need(scope, "--scope", "RECOLLECT_SCOPE")
    with open_rg(as_json) as rg:
        hits = rg.search(
            query,
            scope_id=scope,
            limit=limit,
            min_score=min_score,
            entry_types=list(entry_types) or None,
            tags=list(tags) or None,
            as_of=as_of,
            valid_at=valid_at,
            kinds=list(kinds) or None,
            include_superseded=include_superseded,
            include_deleted=include_deleted,
            hops=hops,
            owner_id=owner,
        )
    if as_json:
        emit_json([h.model_dump(mode="json") for h in hits])
        return
    rows = [
        {
            "rank": h.rank,
            "score": f"{h.score:.3f}",
            **{k: f"{v:.2f}" for k, v in h.signals.model_dump().items()},
            "kind": h.kind,
            "type": h.entry.entry_type,
            "from": _origin(h.kind, h.origin),
            "text": short(h.entry.title or h.entry.content),
            "id": h.entry.id[:8],
        }
        for h in hits
    ]
    click.echo(table(rows))
    click.echo(f"({len(hits)} hit{'s' if len(hits) != 1 else ''})")


def _origin(kind: str, origin: dict[str, Any]) -> str:
    """Where a hit came from, in a few words: document, heading and chunk; or session."""
    if kind == "chunk":
        where = " > ".join(
            str(x) for x in (origin.get("document_title"), origin.get("heading")) if x
        )
        return short(f"{where} #{origin.get('chunk')}")
    if kind == "turn":
        return short(f"{origin.get('session_id')} #{origin.get('turn')}")
    return ""


COMMANDS = (
    remember_cmd,
    forget_cmd,
    connect_cmd,
    recent_cmd,
    search_cmd,
    get_cmd,
    restore_cmd,
    undo_cmd,
    outcome_cmd,
    operations_cmd,
)
