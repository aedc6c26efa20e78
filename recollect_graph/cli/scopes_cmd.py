"""Scope administration commands: scopes list/drop/purge; edit an entry in place; reembed."""

from __future__ import annotations

import sys

import click

from recollect_graph.cli.common import need_scope, open_rg, read_input, scope_option
from recollect_graph.cli.output import emit_json, handle_errors, json_option, progress, table


@click.group("scopes")
def scopes_group() -> None:
    """List scopes with their counts, drop a scope (undoable until purged), purge.

    \b
    Example:
      recollect-graph scopes list
    """


@scopes_group.command("list")
@click.option("--dropped", is_flag=True, help="Also list dropped scopes not yet purged.")
@json_option
@handle_errors
def list_cmd(dropped: bool, as_json: bool) -> None:
    """Every scope with its entries (current ones apart), documents, entities, sessions.

    \b
    Example:
      recollect-graph scopes list --dropped --json
    """
    with open_rg(as_json) as rg:
        rows = rg.scopes.list(include_dropped=dropped)
    if as_json:
        emit_json(rows)
        return
    cols = ["scope_id", "entries", "current", "documents", "chunks", "entities", "sessions"]
    click.echo(table(rows, [*cols, "operations", "dropped"]))


@scopes_group.command("drop")
@scope_option
@click.option("--yes", is_flag=True, help="Do not ask.")
@json_option
@handle_errors
def drop_cmd(scope: str | None, yes: bool, as_json: bool) -> None:
    """Drop a scope: all of it is hidden at once (undo the operation until it is purged).

    \b
    Example:
      recollect-graph scopes drop --scope scratch --yes
    """
    sc = need_scope(scope)
    if not yes and not as_json:
        click.confirm(f"Drop scope {sc!r} (undoable until purged)?", abort=True)
    with open_rg(as_json) as rg:
        out = rg.scopes.drop(sc)
    if as_json:
        emit_json(out)
        return
    click.echo(
        f"dropped scope {sc} ({out['nodes']} nodes); undo with: recollect-graph undo "
        f"{out['operation_id']} --scope {sc}"
    )


@scopes_group.command("purge")
@click.option("--scope", help="Only the dropped scope of this name (default: every one).")
@click.option("--yes", is_flag=True, help="Do not ask.")
@json_option
@handle_errors
def purge_cmd(scope: str | None, yes: bool, as_json: bool) -> None:
    """Delete dropped scopes for good (their drops can no longer be undone).

    \b
    Example:
      recollect-graph scopes purge --scope scratch --yes --json
    """
    if not yes and not as_json:
        what = f"dropped scope {scope!r}" if scope else "every dropped scope"
        click.confirm(f"Delete {what} for good?", abort=True)
    with open_rg(as_json) as rg:
        out = rg.scopes.purge(scope)
    if as_json:
        emit_json(out)
        return
    if not out["purged"]:
        click.echo("no dropped scope to purge")
        return
    for p in out["purged"]:
        click.echo(f"purged {p['scope_id']} ({p['nodes']} nodes)")


@click.command("edit")
@click.argument("entry_id", metavar="ID")
@click.argument("content", metavar="CONTENT|-")
@scope_option
@json_option
@handle_errors
def edit_cmd(entry_id: str, content: str, scope: str | None, as_json: bool) -> None:
    """Edit an entry in place: new content, same id; vector and claims recomputed (undoable).

    \b
    Example:
      recollect-graph edit 3f2a... "Deploys happen on Wednesdays" --scope app
      echo "new text" | recollect-graph edit 3f2a... - --scope app --json
    """
    sc = need_scope(scope)
    text = read_input("-") if content == "-" else content
    with open_rg(as_json) as rg:
        entry, op = rg.edit(entry_id, text, scope_id=sc)
    if as_json:
        emit_json({"entry": entry.model_dump(mode="json"), "operation_id": op})
        return
    if op is None:
        click.echo(f"{entry.id} already says that: nothing changed, no operation recorded")
        return
    click.echo(f"edited {entry.id}; undo with: recollect-graph undo {op} --scope {sc}")


@click.command("reembed")
@click.option(
    "--scope",
    "scope",
    default=None,
    help="Only this scope (default: every scope, what a model change needs).",
)
@click.option("--batch-size", type=click.IntRange(1, 10_000), default=128, show_default=True)
@click.option(
    "--turn-contexts",
    is_flag=True,
    help="Also give conversation turns stored before context vectors existed theirs.",
)
@json_option
@handle_errors
def reembed_cmd(scope: str | None, batch_size: int, turn_contexts: bool, as_json: bool) -> None:
    """Give every vector (entries, turns, chunks, entities, documents, topics, sessions) the model.

    After RECOLLECT_EMBEDDING_MODEL changes (the start-up check then refuses the old vectors and
    names this command). Resumable: a re-run after a crash or Ctrl-C does only what is left, one
    transaction per batch; the vector indexes are rebuilt once when the vector size changed.

    \b
    Example:
      RECOLLECT_EMBEDDING_MODEL=/models/new recollect-graph reembed --json
    """
    from recollect_graph.facade import Recollect

    with Recollect.open(schema="skip", progress=progress(as_json)) as rg:
        if as_json or not sys.stderr.isatty():
            report = rg.reembed(scope, batch_size=batch_size, turn_contexts=turn_contexts)
        else:
            with click.progressbar(length=1, label="re-embedding", file=sys.stderr) as bar:

                def tick(done: int, total: int) -> None:
                    bar.length = max(total, 1)
                    bar.update(done - bar.pos)

                report = rg.reembed(
                    scope, batch_size=batch_size, progress=tick, turn_contexts=turn_contexts
                )
    if as_json:
        emit_json(report.to_dict())
        return
    where = f"scope {report.scope_id}" if report.scope_id else "every scope"
    done = ", ".join(
        f"{getattr(report, k)} {k}" for k in ("entries", "chunks", "entities", "documents")
    )
    click.echo(
        f"re-embedded {done}, {report.topics} topics and {report.sessions} sessions of {where} "
        f"into {report.model} ({report.dimensions} dims) in {report.seconds}s"
    )
    if report.indexes_rebuilt:
        click.echo("vector indexes rebuilt for the new size: " + ", ".join(report.indexes_rebuilt))
    if turn_contexts:
        click.echo(f"{report.turn_contexts} turns given a context vector")


COMMANDS = (scopes_group, edit_cmd, reembed_cmd)
