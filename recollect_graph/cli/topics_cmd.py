"""CLI: topics (build, list, show): clusters of a scope's entries and documents."""

from __future__ import annotations

import sys
from typing import Any

import click

from recollect_graph.cli.common import (
    need_scope,
    open_rg,
    page,
    page_options,
    scope_option,
    short,
)
from recollect_graph.cli.output import emit_json, handle_errors, json_option, table


@click.group("topics")
def topics_group() -> None:
    """Topics: clusters of entries and documents with keywords and a cited digest (no LLM).

    \b
    Example:
      recollect-graph topics build --scope app
      recollect-graph topics list --scope app
      recollect-graph topics show "postgres, index" --scope app
    """


@topics_group.command("build")
@scope_option
@click.option("--all", "all_", is_flag=True, help="Rebuild every topic, not only stale/new ones.")
@click.option(
    "--min-size",
    default=3,
    show_default=True,
    type=click.IntRange(2, 10_000),
    help="Smallest cluster that is a topic.",
)
@json_option
@handle_errors
def build_cmd(scope: str | None, all_: bool, min_size: int, as_json: bool) -> None:
    """Cluster a scope's entries and documents into topics (only stale or new ones are written).

    \b
    Example:
      recollect-graph topics build --scope app --all
    """
    scope_id = need_scope(scope)
    with open_rg(as_json) as rg:
        bar: Any = None
        if not as_json or sys.stderr.isatty():
            bar = click.progressbar(length=5, label="  topics", file=sys.stderr)

        def step(done: int, total: int, stage: str) -> None:
            if bar is not None:
                bar.label = f"  topics: {stage}"
                bar.update(1)

        try:
            report = rg.topics.build(scope_id, all=all_, min_size=min_size, progress=step)
        finally:
            if bar is not None:
                bar.render_finish()
    if as_json:
        emit_json(report)
        return
    click.echo(
        f"{report['topics']} topics over {report['clustered']} of {report['members']} members: "
        f"{report['built']} built, {report['kept']} kept, {report['removed']} removed "
        f"({report['seconds']}s)"
    )


@topics_group.command("list")
@scope_option
@page_options(50, 1000)
@json_option
@handle_errors
def list_cmd(scope: str | None, offset: int, limit: int, as_json: bool) -> None:
    """Topics of a scope, largest first, with staleness checked against current content.

    A page: --offset skipped, then at most --limit.

    \b
    Example:
      recollect-graph topics list --scope app --json
      recollect-graph topics list --scope app --offset 50 --limit 50
    """
    page(offset, limit, 1000)
    with open_rg(as_json) as rg:
        rows = rg.topics.list(need_scope(scope), limit=limit, offset=offset)
    if as_json:
        emit_json(rows)
        return
    click.echo(
        table(
            [
                {
                    "id": r["id"][:8],
                    "label": short(r["label"], 40),
                    "members": r["member_count"],
                    "stale": ",".join(r["stale_reasons"]) if r["stale"] else "",
                    "keywords": short(", ".join(r["keywords"]), 60),
                }
                for r in rows
            ]
        )
    )


@topics_group.command("show")
@click.argument("topic")
@scope_option
@json_option
@handle_errors
def show_cmd(topic: str, scope: str | None, as_json: bool) -> None:
    """One topic (by id or label): keywords, digest with sources, members.

    \b
    Example:
      recollect-graph topics show "postgres, index" --scope app
    """
    with open_rg(as_json) as rg:
        t = rg.topics.show(need_scope(scope), topic)
    if as_json:
        emit_json(t)
        return
    state = f"stale ({', '.join(t['stale_reasons'])})" if t["stale"] else "current"
    click.echo(f"{t['label']}  [{t['id']}]  {t['member_count']} members, {state}")
    click.echo(f"keywords: {', '.join(t.get('keywords') or [])}")
    click.echo("digest:")
    for d in t["digest"]:
        click.echo(f"  - {d['text']}  [{_cite(d['source'])}]")
    click.echo("members:")
    for m in t["members"]:
        name = m.get("title") or short(m.get("snippet"), 60)
        click.echo(f"  {m['confidence']:.2f}  {m['kind']:8} {m['id']}  {name}")


def _cite(src: dict[str, Any]) -> str:
    """``entry <id> "title"`` or ``document <id> "title" chunk <seq>``."""
    out = f"{src.get('kind')} {src.get('id')}"
    if src.get("title"):
        out += f' "{short(src["title"], 40)}"'
    if src.get("kind") == "document" and src.get("chunk_seq") is not None:
        out += f" chunk {src['chunk_seq']}"
    return out
