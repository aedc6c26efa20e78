"""CLI: documents and entities.

``docs ingest | list | show | forget`` and ``entities show | neighbours | path | review |
merge | unmerge | index``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from recollect_graph.cli.common import (
    need,
    open_rg,
    owner_option,
    page,
    page_options,
    read_input,
    scope_option,
    short,
)
from recollect_graph.cli.output import (
    emit_json,
    handle_errors,
    json_option,
    stored_before_error,
    table,
)


def _scope(scope: str | None) -> str:
    return need(scope, "--scope", "RECOLLECT_SCOPE")


@click.group("docs")
def docs_group() -> None:
    """Documents: ingest files, folders or text; list, show and forget them."""


@docs_group.command("ingest")
@click.argument("paths", nargs=-1, required=True)
@scope_option
@owner_option
@click.option("--collection", default="default", show_default=True, help="Collection name.")
@click.option("--title", help="Title (with '-' for stdin, or a single file).")
@click.option("--no-recursive", is_flag=True, help="Only the folder's own files.")
@json_option
@handle_errors
def ingest_cmd(
    paths: tuple[str, ...],
    scope: str | None,
    owner: str | None,
    collection: str,
    title: str | None,
    no_recursive: bool,
    as_json: bool,
) -> None:
    """Ingest Markdown, text or HTML files and folders ('-' reads text from stdin).

    Unchanged documents are skipped (no embedding); changed ones are updated incrementally.
    Exits 1 when any document failed.

    \b
    Examples:
      recollect-graph docs ingest docs/ --scope me
      echo "# Note" | recollect-graph docs ingest - --title Note --scope me
    """
    from recollect_graph.results import FolderReport, IngestResult
    from recollect_graph.services.documents.service import PipelineFailed

    sc, ow = _scope(scope), need(owner, "--owner", "RECOLLECT_OWNER")
    documents: list[IngestResult] = []
    skipped: list[str] = []
    seconds = 0.0
    run_id: str | None = None
    current = 0  # files of the folder being ingested that are done (each is committed)

    def stored() -> tuple[str, dict[str, Any]] | None:
        done = sum(1 for d in documents if d.status != "failed") + current
        if not done:
            return None
        line = (
            f"ingested {done} files into scope {sc} before the error "
            "(each one committed whole, failed or skipped)"
        )
        return line, {"files": done, "scope_id": sc}

    with stored_before_error(as_json, stored), open_rg(as_json) as rg:
        for p in paths:
            if p == "-":
                text = read_input("-")
                try:
                    documents.append(
                        rg.documents.ingest(
                            title or "stdin", text, owner_id=ow, scope_id=sc, collection=collection
                        )
                    )
                except PipelineFailed as e:
                    documents.append(
                        IngestResult(
                            document_id=e.document_id,
                            status="failed",
                            title=title or "stdin",
                            error=str(e),
                        )
                    )
                continue
            bar: Any = None

            def tick(done: int, total: int, name: str, label: str = p) -> None:
                nonlocal bar, current
                current = done
                if not sys.stderr.isatty():
                    return
                if bar is None:
                    bar = click.progressbar(length=total, label=f"  {label}", file=sys.stderr)
                    bar.__enter__()
                bar.update(done - bar.pos)

            sub = rg.documents.ingest_path(
                Path(p),
                owner_id=ow,
                scope_id=sc,
                collection=collection,
                recursive=not no_recursive,
                progress=tick,
            )
            if bar is not None:
                bar.__exit__(None, None, None)
            current = 0
            documents.extend(sub.documents)
            skipped.extend(sub.skipped)
            seconds += sub.seconds
            run_id = sub.run_id
    report = FolderReport(documents=documents, skipped=skipped, seconds=seconds, run_id=run_id)
    totals = report.totals()
    if as_json:
        emit_json(report.to_dict())
    else:
        rows = [
            {
                "status": d.status,
                "title": short(d.title, 40),
                "chunks": d.counts.get("chunks_total", ""),
                "embedded": d.counts.get("chunks_embedded", ""),
                "entities": d.counts.get("entities", ""),
                "id": d.document_id,
                "error": short(d.error, 60) if d.error else "",
            }
            for d in report.documents
            if d.status != "unchanged"
        ]
        if rows:
            click.echo(table(rows))
        for s in report.skipped:
            click.echo(f"skipped {s}", err=True)
        click.echo(
            f"{totals['documents']} documents: {totals['created']} created, "
            f"{totals['updated']} updated, {totals['unchanged']} unchanged, {totals['failed']} "
            f"failed; {totals['chunks_embedded']} chunks embedded in {totals['seconds']} s"
        )
    if totals["failed"]:
        sys.exit(1)


@docs_group.command("list")
@scope_option
@click.option("--collection", help="Only this collection.")
@click.option("--status", type=click.Choice(["pending", "ready", "failed"]))
@page_options(50, 1000)
@json_option
@handle_errors
def list_cmd(
    scope: str | None,
    collection: str | None,
    status: str | None,
    offset: int,
    limit: int,
    as_json: bool,
) -> None:
    """Documents of a scope, most recently updated first (a page: --offset/--limit)."""
    page(offset, limit, 1000)
    with open_rg(as_json) as rg:
        rows = rg.documents.list(
            _scope(scope), collection=collection, status=status, offset=offset, limit=limit
        )
    if as_json:
        emit_json(rows)
        return
    click.echo(
        table(
            [
                {
                    "id": r["id"],
                    "title": short(r.get("title"), 40),
                    "status": r.get("status"),
                    "chunks": r.get("chunk_count"),
                    "tokens": r.get("token_count"),
                    "collection": r.get("collection"),
                    "updated": str(r.get("updated_at") or "")[:16],
                }
                for r in rows
            ]
        )
    )


@docs_group.command("show")
@click.argument("document")
@scope_option
@click.option("--chunks", "with_chunks", is_flag=True, help="Also list the chunks.")
@click.option("--runs", "with_runs", is_flag=True, help="Also list the pipeline runs.")
@json_option
@handle_errors
def show_cmd(
    document: str, scope: str | None, with_chunks: bool, with_runs: bool, as_json: bool
) -> None:
    """One document (by id, source id, title or path): status, last run, similar documents."""
    sc = _scope(scope)
    with open_rg(as_json) as rg:
        doc = rg.documents.get(document, scope_id=sc, chunks=with_chunks)
        if with_runs:
            doc["runs"] = rg.documents.runs(doc["id"], scope_id=sc)
    if as_json:
        emit_json(doc)
        return
    for k in ("id", "title", "collection", "source_type", "source_id", "status", "error"):
        if doc.get(k) is not None:
            click.echo(f"{k:12} {doc[k]}")
    click.echo(f"{'chunks':12} {doc.get('chunk_count')} ({doc.get('token_count')} tokens)")
    run = doc.get("last_run")
    if run:
        click.echo(f"{'last run':12} {run.get('status')} at {str(run.get('started_at'))[:19]}")
    for s in doc.get("similar") or []:
        click.echo(f"similar      {s['score']:.2f} {s['title']}")
    for s in doc.get("sharing") or []:
        click.echo(f"shares       {s['count']} entities with {s['title']}")
    for c in doc.get("chunks") or []:
        click.echo(f"  [{c['seq']}] {short(c.get('heading'), 40)}: {short(c['text'], 70)}")
    for r in doc.get("runs") or []:
        click.echo(f"  run {r['id']} {r['status']} {str(r.get('started_at'))[:19]}")


@docs_group.command("forget")
@click.argument("document")
@scope_option
@click.option("--yes", is_flag=True, help="Do not ask.")
@json_option
@handle_errors
def forget_cmd(document: str, scope: str | None, yes: bool, as_json: bool) -> None:
    """Delete a document and retract everything derived from it (one transaction)."""
    sc = _scope(scope)
    if not yes and not as_json:
        click.confirm(f"Forget document {document!r} and all derived from it?", abort=True)
    with open_rg(as_json) as rg:
        out = rg.documents.forget(document, scope_id=sc)
    if as_json:
        emit_json(out)
        return
    click.echo(
        f"forgot {out['document_id']}: {out['chunks']} chunks, {out['relations_removed']} "
        f"relations and {out['entities_removed']} entities retracted, "
        f"{out['entries_restored']} entries restored, {out['topics_stale']} topics now stale"
    )


@click.group("entities")
def entities_group() -> None:
    """Entities and relations: show, neighbours, path, review and merge."""


@entities_group.command("show")
@click.argument("entity")
@scope_option
@json_option
@handle_errors
def entity_show_cmd(entity: str, scope: str | None, as_json: bool) -> None:
    """An entity (by id, name or alias): mentions with snippets and relations."""
    with open_rg(as_json) as rg:
        e = rg.entities.show(entity, scope_id=_scope(scope))
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
    """Entities within --hops relations of ENTITY, nearest first."""
    with open_rg(as_json) as rg:
        rows = rg.entities.neighbours(entity, scope_id=_scope(scope), hops=hops, limit=limit)
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
    """The shortest chain of relations between two entities."""
    with open_rg(as_json) as rg:
        steps = rg.entities.path(a, b, scope_id=_scope(scope))
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
    """
    page(offset, limit, 1000)
    with open_rg(as_json) as rg:
        rows = rg.entities.review(_scope(scope), limit=limit, offset=offset)
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
    """Merge entity ABSORB into KEEP (undo with `entities unmerge OPERATION`)."""
    with open_rg(as_json) as rg:
        op = rg.entities.merge(keep, absorb, scope_id=_scope(scope))
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
    """Undo an entity merge."""
    with open_rg(as_json) as rg:
        out = rg.entities.unmerge(operation_id, scope_id=_scope(scope))
    if as_json:
        emit_json(out)
        return
    click.echo(f"restored entity {out['entity_id']} ({out['restored']} edges moved back)")


@entities_group.command("index")
@scope_option
@json_option
@handle_errors
def index_cmd(scope: str | None, as_json: bool) -> None:
    """Extract entities and relations from the scope's entries (new or changed ones only)."""
    sc = _scope(scope)
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


COMMANDS = (docs_group, entities_group)
