"""History commands: undo a logged operation, list operations, restore entries, record outcomes."""

from __future__ import annotations

import click

from recollect_graph.cli.common import (
    fail_missing,
    need,
    need_scope,
    open_rg,
    page,
    page_options,
    scope_option,
)
from recollect_graph.cli.output import emit_json, handle_errors, json_option, table


@click.command("undo")
@click.argument("operation_id")
@scope_option
@json_option
@handle_errors
def undo_cmd(operation_id: str, scope: str | None, as_json: bool) -> None:
    """Undo a logged destructive operation (forget, soft delete).

    \b
    Example:
      recollect-graph undo 7d0c... --scope app
    """
    scope = need_scope(scope)
    with open_rg(as_json) as rg:
        op = rg.undo(operation_id, scope_id=scope)
    if as_json:
        emit_json(op.model_dump(mode="json"))
    else:
        click.echo(f"undid {op.kind} {op.id} ({len(op.entry_ids)} entries)")


@click.command("operations")
@scope_option
@page_options(20, 10_000)
@json_option
@handle_errors
def operations_cmd(scope: str | None, offset: int, limit: int, as_json: bool) -> None:
    """List the newest logged destructive operations of a scope (ids for `undo`).

    A page, newest first: --offset skipped, then at most --limit.

    \b
    Example:
      recollect-graph operations --scope app --json
      recollect-graph operations --scope app --offset 20 --limit 20
    """
    scope = need(scope, "--scope", "RECOLLECT_SCOPE")
    page(offset, limit, 10_000)
    with open_rg(as_json) as rg:
        ops = rg.knowledge.operations(scope, limit=limit, offset=offset)
    if as_json:
        emit_json([o.model_dump(mode="json") for o in ops])
        return
    rows = [
        {
            "at": o.at.strftime("%Y-%m-%d %H:%M:%S"),
            "kind": o.kind,
            "entries": len(o.entry_ids),
            "reason": o.reason,
            "undone": "yes" if o.undone_at else "",
            "id": o.id,
        }
        for o in ops
    ]
    click.echo(table(rows))


@click.command("outcome")
@click.argument("result", type=click.Choice(["good", "bad"]))
@click.argument("entry_ids", metavar="ID...", nargs=-1, required=True)
@scope_option
@json_option
@handle_errors
def outcome_cmd(result: str, entry_ids: tuple[str, ...], scope: str | None, as_json: bool) -> None:
    """Report how entries that were used worked out. Exit code 1 when an id was not found.

    good adds 5 days of half-life and marks them verified; bad takes 3 days away.

    \b
    Example:
      recollect-graph outcome good 3f2a... 9b1c... --scope app
    """
    scope = need_scope(scope)
    with open_rg(as_json) as rg:
        updated = rg.outcome(list(entry_ids), result, scope_id=scope)
    missing = [i for i in dict.fromkeys(entry_ids) if i not in updated]
    if as_json:
        emit_json({"updated": updated, "not_found": missing})
    else:
        click.echo(f"recorded {result} outcome on {len(updated)} entries")
    fail_missing(missing)


@click.command("restore")
@click.argument("entry_ids", metavar="ID...", nargs=-1, required=True)
@scope_option
@json_option
@handle_errors
def restore_cmd(entry_ids: tuple[str, ...], scope: str | None, as_json: bool) -> None:
    """Undo soft deletes (`memory delete`). Exit code 1 when an id was not soft-deleted.

    \b
    Example:
      recollect-graph restore 3f2a... --scope app
    """
    scope = need(scope, "--scope", "RECOLLECT_SCOPE")
    with open_rg(as_json) as rg:
        out = rg.memories.in_scope(scope).restore(list(entry_ids))
    if as_json:
        emit_json(out)
    else:
        click.echo(f"restored {len(out['restored'])} entries")
    fail_missing(out["not_found"], "not found or not deleted")


# -- reads -------------------------------------------------------------------------------------
