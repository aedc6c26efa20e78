"""CLI: documents: ``docs ingest | list | show | forget``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from recollect_graph.cli.common import (
    need,
    need_scope,
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
from recollect_graph.vocabulary import DOCUMENT_STATUSES


@click.group("docs")
def docs_group() -> None:
    """Documents: ingest files, folders or text; list, show and forget them.

    \b
    Example:
      recollect-graph docs ingest docs/ --scope app && recollect-graph docs list --scope app
    """


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

    sc, ow = need_scope(scope), need(owner, "--owner", "RECOLLECT_OWNER")
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
@click.option("--status", type=click.Choice(DOCUMENT_STATUSES), help="Only this status.")
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
    """Documents of a scope, most recently updated first (a page: --offset/--limit).

    \b
    Example:
      recollect-graph docs list --scope app --status ready --json
    """
    page(offset, limit, 1000)
    with open_rg(as_json) as rg:
        rows = rg.documents.list(
            need_scope(scope), collection=collection, status=status, offset=offset, limit=limit
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
    """One document (by id, source id, title or path): status, last run, similar documents.

    \b
    Example:
      recollect-graph docs show docs/guide.md --chunks --scope app
    """
    sc = need_scope(scope)
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
    """Delete a document and retract everything derived from it (one transaction).

    \b
    Example:
      recollect-graph docs forget docs/old.md --yes --scope app
    """
    sc = need_scope(scope)
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
        f"{out['entries_restored']} entries restored, {out['topics_stale']} topics now stale; "
        f"undo with: recollect-graph undo {out['operation_id']} --scope {sc}"
    )


COMMANDS = (docs_group,)
