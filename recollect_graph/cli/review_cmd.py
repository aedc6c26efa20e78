"""Lore's review loop: ``sweep``, ``memory suggestions``, ``memory review`` and ``reflect``."""

from __future__ import annotations

import json
import re
import time
from typing import TYPE_CHECKING

import click

from recollect_graph.cli.common import (
    input_name,
    open_rg,
    owner_option,
    page,
    page_options,
    read_input,
    scope_option,
)
from recollect_graph.cli.output import emit_json, handle_errors, json_option, table
from recollect_graph.errors import InvalidInput
from recollect_graph.vocabulary import RELATIONS

if TYPE_CHECKING:
    from recollect_graph.facade import Memories, Recollect


_EVERY = re.compile(r"^(\d+)([smhd])$")


def _mem(rg: Recollect, scope: str | None, owner: str | None) -> Memories:
    return rg.memories.in_scope(scope or rg.settings.default_scope, owner)


def _seconds(every: str) -> int:
    m = _EVERY.match(every.strip())
    if not m:
        raise InvalidInput(f"--every {every!r}: expected a number and s, m, h or d (e.g. 12h)")
    return int(m.group(1)) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]


@click.command("sweep")
@click.option("--min-score", default=0.3, show_default=True, help="Queue candidates from here.")
@click.option("--every", metavar="INTERVAL", help="Run forever at this interval (e.g. 12h).")
@scope_option
@owner_option
@json_option
@handle_errors
def sweep_cmd(
    min_score: float, every: str | None, scope: str | None, owner: str | None, as_json: bool
) -> None:
    """Queue link suggestions for memories changed since the last sweep.

    \b
    Example:
      recollect-graph sweep --scope app --every 12h
    """
    interval = _seconds(every) if every else None
    with open_rg(as_json) as rg:
        while True:
            out = _mem(rg, scope, owner).sweep(min_score=min_score)
            if as_json:
                emit_json(out)
            else:
                click.echo(
                    f"scanned {out['scanned']} memories: {out['proposed']} new suggestions, "
                    f"{out['refreshed']} refreshed, {out['skipped']} already reviewed "
                    f"({out['seconds']}s)"
                )
            if interval is None:
                return
            time.sleep(interval)


@click.command("suggestions")
@page_options(20, 100)
@click.option("--min-score", default=0.0, show_default=True, help="Weighted score floor.")
@scope_option
@owner_option
@json_option
@handle_errors
def suggestions_cmd(
    offset: int,
    limit: int,
    min_score: float,
    scope: str | None,
    owner: str | None,
    as_json: bool,
) -> None:
    """Pending link suggestions, best first.

    A page: --offset skipped, then at most --limit (the JSON's total_pending counts them all).

    \b
    Example:
      recollect-graph memory suggestions --scope app --limit 10
      recollect-graph memory suggestions --scope app --offset 10 --limit 10
    """
    page(offset, limit, 100)
    with open_rg(as_json) as rg:
        out = _mem(rg, scope, owner).pending_suggestions(
            limit=limit, min_score=min_score, offset=offset
        )
    if as_json:
        emit_json(out)
        return
    rows = [
        {
            "id": s["id"][:8],
            "score": f"{s['weighted_score']:.3f}",
            "type": s["relation_type"],
            "from": (s.get("from_title") or s["from_id"])[:30],
            "to": (s.get("to_title") or s["to_id"])[:30],
            "reason": str(s["reason"])[:50],
        }
        for s in out["suggestions"]
    ]
    click.echo(table(rows))
    click.echo(f"({out['count']} shown, {out['total_pending']} pending)")


@click.command("review")
@click.option("--accept", "accept", multiple=True, metavar="ID", help="Suggestion to accept.")
@click.option("--reject", "reject", multiple=True, metavar="ID", help="Suggestion to reject.")
@click.option(
    "--type",
    "relation_type",
    type=click.Choice(RELATIONS, case_sensitive=False),
    help="Relation type for accepted links.",
)
@scope_option
@owner_option
@json_option
@handle_errors
def review_cmd(
    accept: tuple[str, ...],
    reject: tuple[str, ...],
    relation_type: str | None,
    scope: str | None,
    owner: str | None,
    as_json: bool,
) -> None:
    """Accept or reject link suggestions (each on its own; repeats are skipped).

    \b
    Example:
      recollect-graph memory review --accept 1a2b... --reject 3c4d... --scope app
    """
    reviews = [{"id": i, "action": "accept", "relation_type": relation_type} for i in accept]
    reviews += [{"id": i, "action": "reject"} for i in reject]
    if not reviews:
        raise InvalidInput("nothing to review: give --accept or --reject ids")
    with open_rg(as_json) as rg:
        out = _mem(rg, scope, owner).review_suggestions(reviews)
    if as_json:
        emit_json(out)
    else:
        for r in out["results"]:
            click.echo(f"{r['id']}: {r['status']} {r.get('message', '')}".rstrip())
    if any(r["status"] == "error" for r in out["results"]):
        raise SystemExit(1)


@click.command("reflect")
@click.argument("session_id")
@click.option("--summary", required=True, help="What the session did.")
@click.option("--lesson", "lessons", multiple=True, help="A lesson (becomes a memory).")
@click.option("--discovery", "discoveries", multiple=True, help="A discovery (a memory).")
@click.option("--decision", "decisions", multiple=True, help="A decision (a memory).")
@click.option("--pattern", "good_patterns", multiple=True, help="A pattern that worked.")
@click.option("--file", "file", metavar="PATH", help="JSON with the same fields instead.")
@scope_option
@owner_option
@json_option
@handle_errors
def reflect_cmd(
    session_id: str,
    summary: str,
    lessons: tuple[str, ...],
    discoveries: tuple[str, ...],
    decisions: tuple[str, ...],
    good_patterns: tuple[str, ...],
    file: str | None,
    scope: str | None,
    owner: str | None,
    as_json: bool,
) -> None:
    """Save what a session taught (once per session id).

    \b
    Example:
      recollect-graph reflect sess-42 --summary "fixed CI" --lesson "pin the node version"
    """
    lists = {
        "lessons": list(lessons),
        "discoveries": list(discoveries),
        "decisions": list(decisions),
        "good_patterns": list(good_patterns),
    }
    if file:
        try:
            extra = json.loads(read_input(file))
        except json.JSONDecodeError as e:
            raise InvalidInput(f"{input_name(file)}: not valid JSON: {e.msg}") from e
        if not isinstance(extra, dict):
            raise InvalidInput(f"{input_name(file)}: expected a JSON object")
        for k, v in extra.items():
            lists.setdefault(k, [])
            lists[k] = list(lists[k]) + list(v or [])
    with open_rg(as_json) as rg:
        out = _mem(rg, scope, owner).reflect(session_id, summary, **lists)
    if as_json:
        emit_json(out)
    else:
        click.echo(
            f"{'stored' if out['created'] else 'already reflected'}: {session_id}, "
            f"{len(out['memory_ids'])} memories"
        )
