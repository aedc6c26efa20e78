"""``recollect-graph memory ...``: Lore's dialect (titled memories), and the shared CLI helpers."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from recollect_graph.cli.common import (
    fail_missing,
    input_name,
    open_rg,
    owner_option,
    parse_json_items,
    read_input,
    scope_option,
    short,
)
from recollect_graph.cli.output import emit_json, handle_errors, json_option, table
from recollect_graph.errors import InvalidInput
from recollect_graph.vocabulary import DELETE_REASONS, SOURCE_TYPES

if TYPE_CHECKING:
    from recollect_graph.facade import Memories, Recollect


F = TypeVar("F", bound=Callable[..., Any])


def _memories(rg: Recollect, scope: str | None, owner: str | None) -> Memories:
    return rg.memories.in_scope(scope or rg.settings.default_scope, owner)


def _objects(path: str, what: str) -> list[dict[str, Any]]:
    items = parse_json_items(read_input(path), input_name(path))
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise InvalidInput(f"{input_name(path)}: {what} {i} must be a JSON object")
    return items


@click.group("memory")
def memory_group() -> None:
    """Titled memories with de-duplication and auto-linking (Lore's dialect).

    A memory is an entry with a title, unique per scope. --scope defaults to RECOLLECT_SCOPE,
    then "shared"; --owner to RECOLLECT_OWNER, then $USER.

    \b
    Example:
      recollect-graph memory capture "Vite dev server needs --host in Docker" --scope app
    """


@memory_group.command("insert")
@click.option("--file", "file", metavar="PATH", help="JSON list (or JSON Lines) of memories.")
@click.option("--links-file", metavar="PATH", help="JSON list of links between memories.")
@click.option("--force", is_flag=True, help="Insert even when a similar memory exists.")
@scope_option
@owner_option
@json_option
@handle_errors
def insert_cmd(
    file: str | None,
    links_file: str | None,
    force: bool,
    scope: str | None,
    owner: str | None,
    as_json: bool,
) -> None:
    """Insert memories from --file (or stdin), reporting duplicates instead of inserting them.

    Each memory: title (required), content, description, score (0-10), source_type, tags and
    links [{target_memory_id, relation_type, reason}]. Links in --links-file are
    {source_memory_id, target_memory_id, relation_type, reason}. A file may also hold one
    object {"memories": [...], "links": [...]}. Exit code 1 when any item failed.

    \b
    Example:
      recollect-graph memory insert --file memories.json --scope app --json
    """
    if file is None and sys.stdin.isatty():
        raise InvalidInput("give --file PATH or pipe a JSON list of memories on stdin")
    path = file or "-"
    memories = _objects(path, "memory")
    links: list[dict[str, Any]] = []
    if len(memories) == 1 and isinstance(memories[0].get("memories"), list):
        links = list(memories[0].get("links") or [])
        memories = memories[0]["memories"]
    if links_file:
        links += _objects(links_file, "link")
    if not memories and not links:
        raise InvalidInput(f"{input_name(path)}: no memories to insert")
    with open_rg(as_json) as rg:
        out = _memories(rg, scope, owner).insert(memories, links, force=force)
    if as_json:
        emit_json(out)
    else:
        for m in out["inserted_memories"]:
            click.echo(f"inserted  {m['id']}  {m['title']}")
        for d in out["duplicates"]:
            ex = d["existing_memory"]
            click.echo(
                f"duplicate {d['input_title']!r} of {ex['id']} {ex['title']!r} "
                f"(similarity {d['similarity']})"
            )
        click.echo(
            f"{len(out['inserted_memories'])} inserted, {len(out['inserted_links'])} links, "
            f"{len(out['auto_links'])} auto-links, {len(out['duplicates'])} duplicates, "
            f"{len(out['errors'])} errors"
        )
    for err in out["errors"]:
        click.echo(f"Error: {err['error']} (input: {err['input']})", err=True)
    if out["errors"]:
        sys.exit(1)


@memory_group.command("capture")
@click.argument("thought")
@click.option(
    "--source-type",
    default="observed",
    show_default=True,
    type=click.Choice(SOURCE_TYPES),
    help="How it was learned.",
)
@scope_option
@owner_option
@json_option
@handle_errors
def capture_cmd(
    thought: str, source_type: str, scope: str | None, owner: str | None, as_json: bool
) -> None:
    """Capture one thought ('-' for stdin): titled, classified, de-duplicated, auto-linked.

    \b
    Example:
      echo "CI fails when the cache key omits the lockfile" | recollect-graph memory capture -
    """
    text = sys.stdin.read() if thought == "-" else thought
    if not text.strip():
        raise InvalidInput("THOUGHT is empty")
    with open_rg(as_json) as rg:
        out = _memories(rg, scope, owner).capture(text, source_type=source_type)
    if as_json:
        emit_json(out)
    elif out["duplicate"]:
        click.echo(f"duplicate of {out['id']}  {out['title']}")
    else:
        linked = out["linked_to"]
        extra = f"  (linked to {linked['id']}, {linked['score']})" if linked else ""
        click.echo(f"captured {out['id']}  {out['title']}{extra}")


@memory_group.command("search")
@click.argument("query", required=False, default="")
@click.option("--id", "ids", multiple=True, help="Fetch this memory by id (repeatable).")
@click.option("--limit", default=10, show_default=True, help="Maximum results.")
@click.option("--min-score", default=0.0, show_default=True, help="Drop results scoring lower.")
@click.option(
    "--format", "fmt", default="full", show_default=True, help="full or title (id, title, score)."
)
@click.option(
    "--sort-by", default="relevance", show_default=True, help="relevance, recent or frequent."
)
@scope_option
@owner_option
@json_option
@handle_errors
def search_cmd(
    query: str,
    ids: tuple[str, ...],
    limit: int,
    min_score: float,
    fmt: str,
    sort_by: str,
    scope: str | None,
    owner: str | None,
    as_json: bool,
) -> None:
    """Search memories (hybrid), or fetch them with --id in the given order.

    \b
    Example:
      recollect-graph memory search "docker networking" --scope app --format title
      recollect-graph memory search --id 3f2a... --id 9b1c... --json
    """
    with open_rg(as_json) as rg:
        out = _memories(rg, scope, owner).search(
            query,
            ids=list(ids) or None,
            limit=limit,
            min_score=min_score,
            format=fmt,
            sort_by=sort_by,
        )
    if as_json:
        emit_json(out)
        return
    if fmt == "title":
        click.echo(table(out["results"], ["id", "title", "score"]))
    else:
        rows = [
            {
                "score": f"{r['relevance']['combined_score']:.3f}",
                "semantic": f"{r['relevance']['semantic_score']:.2f}",
                "keyword": f"{r['relevance']['keyword_score']:.2f}",
                "quality": r["memory"]["score"],
                "used": r["memory"]["usage_count"],
                "title": short(r["memory"]["title"] or r["memory"]["content"]),
                "links": len(r.get("links") or []),
                "id": r["memory"]["id"],
            }
            for r in out["results"]
        ]
        click.echo(table(rows))
    click.echo(f"({len(out['results'])} of {out['total_matched']} matched)")


@memory_group.command("delete")
@click.argument("ids", metavar="ID...", nargs=-1, required=True)
@click.option(
    "--reason",
    default="unspecified",
    show_default=True,
    type=click.Choice(DELETE_REASONS),
    help="Why it is deleted.",
)
@scope_option
@owner_option
@json_option
@handle_errors
def delete_cmd(
    ids: tuple[str, ...], reason: str, scope: str | None, owner: str | None, as_json: bool
) -> None:
    """Soft-delete memories (hidden from search; undo with `restore` or `undo`).

    Exit code 1 when an id was not found.

    \b
    Example:
      recollect-graph memory delete 3f2a... --reason outdated --scope app
    """
    with open_rg(as_json) as rg:
        out = _memories(rg, scope, owner).delete(list(ids), reason=reason)
    if as_json:
        emit_json(out)
    else:
        click.echo(
            f"deleted {len(out['forgotten'])} memories; undo with: "
            f"recollect-graph undo {out['operation_id']}"
            if out["forgotten"]
            else "nothing deleted"
        )
    fail_missing(out["not_found"])


@memory_group.command("feedback")
@click.option("--useful", "useful", multiple=True, metavar="ID", help="A memory that helped.")
@click.option("--not-useful", "not_useful", multiple=True, metavar="ID", help="One that did not.")
@click.option(
    "--confidence", default=10, show_default=True, type=int, help="Confidence 1-10 for all items."
)
@click.option("--file", "file", metavar="PATH", help='JSON {"memory_feedback": [...], ...}.')
@scope_option
@owner_option
@json_option
@handle_errors
def feedback_cmd(
    useful: tuple[str, ...],
    not_useful: tuple[str, ...],
    confidence: int,
    file: str | None,
    scope: str | None,
    owner: str | None,
    as_json: bool,
) -> None:
    """Rate memories (and links) after using them; drives the quality score.

    Useful raises the 0-10 score, not useful lowers it, scaled by confidence; repeated
    low-confidence "not useful" ratings soft-delete a memory. Unknown ids are reported per item.

    \b
    Example:
      recollect-graph memory feedback --useful 3f2a... --not-useful 9b1c... --confidence 8
    """
    memory_feedback = [{"id": i, "useful": True, "confidence": confidence} for i in useful]
    memory_feedback += [{"id": i, "useful": False, "confidence": confidence} for i in not_useful]
    link_feedback: list[Any] = []
    if file:
        text = read_input(file)
        try:
            data = json.loads(text) if text.strip() else {}
        except json.JSONDecodeError as e:
            raise InvalidInput(f"{input_name(file)}: not valid JSON: {e.msg}") from e
        if not isinstance(data, dict):
            raise InvalidInput(f"{input_name(file)}: expected a JSON object")
        memory_feedback += list(data.get("memory_feedback") or [])
        link_feedback += list(data.get("link_feedback") or [])
    if not memory_feedback and not link_feedback:
        raise InvalidInput("nothing to rate: give --useful/--not-useful ids or --file")
    with open_rg(as_json) as rg:
        out = _memories(rg, scope, owner).feedback(memory_feedback, link_feedback)
    if as_json:
        emit_json(out)
    else:
        click.echo(
            f"updated {len(out['updated_memories'])} memories, {len(out['updated_links'])} "
            f"links; soft-deleted {len(out['soft_deleted_memories'])}"
        )
        for err in out["errors"]:
            click.echo(f"  {err['id']}: {err['error']}", err=True)
    if out["errors"]:
        raise SystemExit(1)


@memory_group.command("suggest-links")
@click.argument("memory_id")
@click.option("--top-k", default=10, show_default=True, type=int, help="Candidates (1-50).")
@scope_option
@owner_option
@json_option
@handle_errors
def suggest_links_cmd(
    memory_id: str, top_k: int, scope: str | None, owner: str | None, as_json: bool
) -> None:
    """Typed link candidates for a memory, with per-signal scores. Writes nothing.

    \b
    Example:
      recollect-graph memory suggest-links 3f2a... --top-k 5 --json
    """
    with open_rg(as_json) as rg:
        out = _memories(rg, scope, owner).suggest_links(memory_id, top_k=top_k)
    if as_json:
        emit_json(out)
        return
    click.echo(
        table(
            [
                {
                    "score": f"{c['weighted_score']:.3f}",
                    "type": c["relation_type"],
                    "candidate": short(c["title"] or c["candidate_id"], 40),
                    "semantic": f"{c['scores']['semantic']:.2f}",
                    "keyword": f"{c['scores']['keyword']:.2f}",
                    "entities": f"{c['scores']['entities']:.2f}",
                    "temporal": f"{c['scores']['temporal']:.2f}",
                    "reason": short(c["reason"], 50),
                }
                for c in out["candidates"]
            ]
        )
    )
