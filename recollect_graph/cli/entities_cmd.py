"""CLI: entities and their relations.

``entities show | neighbours | path | review | merge | unmerge | index``.
"""

from __future__ import annotations

import sys

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


@click.group("entities")
def entities_group() -> None:
    """Entities and relations: show, neighbours, path, review and merge.

    \b
    Example:
      recollect-graph entities show Neo4j --scope app
    """


@entities_group.command("show")
@click.argument("entity")
@scope_option
@json_option
@handle_errors
def entity_show_cmd(entity: str, scope: str | None, as_json: bool) -> None:
    """An entity (by id, name or alias): mentions with snippets and relations.

    \b
    Example:
      recollect-graph entities show Neo4j --scope app --json
    """
    with open_rg(as_json) as rg:
        e = rg.entities.show(entity, scope_id=need_scope(scope))
    if as_json:
        emit_json(e)
        return
    click.echo(f"{e['name']} ({e.get('entity_type')}, {e.get('mention_count')} mentions)")
    if e.get("aliases"):
        click.echo(f"  aliases: {', '.join(e['aliases'])}")
    for r in e["relations"]:
        p, o = r["predicate"], r["other"]
        arrow = f"--{p}--> {o}" if r["direction"] == "out" else f"<--{p}-- {o}"
        click.echo(f"  {arrow}  (x{r['weight']})")
    for m in e["mentions"]:
        click.echo(f"  in {short(m.get('title'), 40)}: {short(m.get('snippet'), 80)}")


@entities_group.command("neighbours")
@click.argument("entity")
@scope_option
@click.option("--hops", default=2, show_default=True, type=click.IntRange(1, 4))
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 500))
@json_option
@handle_errors
def neighbours_cmd(entity: str, scope: str | None, hops: int, limit: int, as_json: bool) -> None:
    """Entities within --hops relations of ENTITY, nearest first.

    \b
    Example:
      recollect-graph entities neighbours Neo4j --hops 2 --scope app
    """
    with open_rg(as_json) as rg:
        rows = rg.entities.neighbours(entity, scope_id=need_scope(scope), hops=hops, limit=limit)
    if as_json:
        emit_json(rows)
        return
    click.echo(table([{"hops": r["hops"], "name": r["name"], "via": r["via"]} for r in rows]))


@entities_group.command("path")
@click.argument("a")
@click.argument("b")
@scope_option
@json_option
@handle_errors
def path_cmd(a: str, b: str, scope: str | None, as_json: bool) -> None:
    """The shortest chain of relations between two entities.

    \b
    Example:
      recollect-graph entities path Neo4j Kafka --scope app
    """
    with open_rg(as_json) as rg:
        steps = rg.entities.path(a, b, scope_id=need_scope(scope))
    if as_json:
        emit_json(steps)
        return
    if not steps:
        click.echo(f"no path between {a!r} and {b!r} within 6 relations")
        return
    for s in steps:
        if s["kind"] == "entity":
            click.echo(f"({s['name']})")
        else:
            click.echo(f"   {s['subject']} --{s['predicate']}--> {s['object']}")


@entities_group.command("review")
@scope_option
@page_options(50, 1000)
@json_option
@handle_errors
def review_cmd(scope: str | None, offset: int, limit: int, as_json: bool) -> None:
    """Entity pairs with similar names that were not merged automatically, most similar first.

    A page: --offset skipped, then at most --limit.

    \b
    Example:
      recollect-graph entities review --scope app --limit 20
    """
    page(offset, limit, 1000)
    with open_rg(as_json) as rg:
        rows = rg.entities.review(need_scope(scope), limit=limit, offset=offset)
    if as_json:
        emit_json(rows)
        return
    click.echo(table(rows))


@entities_group.command("merge")
@click.argument("keep")
@click.argument("absorb")
@scope_option
@json_option
@handle_errors
def merge_cmd(keep: str, absorb: str, scope: str | None, as_json: bool) -> None:
    """Merge entity ABSORB into KEEP (undo with `entities unmerge OPERATION`).

    \b
    Example:
      recollect-graph entities merge "Neo4j" "neo4j db" --scope app
    """
    with open_rg(as_json) as rg:
        op = rg.entities.merge(keep, absorb, scope_id=need_scope(scope))
    if as_json:
        emit_json({"operation_id": op})
        return
    click.echo(f"merged; undo with: recollect-graph entities unmerge {op}")


@entities_group.command("unmerge")
@click.argument("operation_id")
@scope_option
@json_option
@handle_errors
def unmerge_cmd(operation_id: str, scope: str | None, as_json: bool) -> None:
    """Undo an entity merge.

    \b
    Example:
      recollect-graph entities unmerge 7d1e... --scope app
    """
    with open_rg(as_json) as rg:
        out = rg.entities.unmerge(operation_id, scope_id=need_scope(scope))
    if as_json:
        emit_json(out)
        return
    click.echo(f"restored entity {out['entity_id']} ({out['restored']} edges moved back)")


@entities_group.command("index")
@scope_option
@json_option
@handle_errors
def index_cmd(scope: str | None, as_json: bool) -> None:
    """Extract entities and relations from the scope's entries (new or changed ones only).

    \b
    Example:
      recollect-graph entities index --scope app --json
    """
    sc = need_scope(scope)
    bar = click.progressbar(length=1, label="  entries", file=sys.stderr)
    with open_rg(as_json) as rg, bar:

        def tick(done: int, total: int) -> None:
            bar.length = total
            bar.update(done - bar.pos)

        out = rg.entities.index_entries(sc, rg.documents.pipeline, progress=tick)
    if as_json:
        emit_json(out)
        return
    click.echo(
        f"{out['entries']} entries: {out['mentions']} mentions, {out['relations']} relations"
    )


COMMANDS = (entities_group,)
