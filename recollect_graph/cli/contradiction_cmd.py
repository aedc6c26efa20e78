"""Contradiction commands: contradictions check, conflicts, supersede, invalidate, consolidate."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from recollect_graph.cli.common import (
    need,
    open_rg,
    owner_option,
    page,
    page_options,
    scope_option,
    short,
)
from recollect_graph.cli.output import emit_json, handle_errors, json_option, table
from recollect_graph.errors import InvalidInput

if TYPE_CHECKING:
    from recollect_graph.results import EntrySupersession, Supersession


SCOPE_ENV = "RECOLLECT_SCOPE"


def _undo_hint(op_id: str | None) -> str:
    return f"; undo with: recollect-graph undo {op_id}" if op_id else ""


def _ids(ids: list[str]) -> str:
    return ", ".join(ids) if ids else "none"


# -- contradictions check ----------------------------------------------------------------------
@click.group("contradictions")
def contradictions_group() -> None:
    """Check statements against what a scope already knows.

    \b
    Example:
      recollect-graph contradictions check "We moved the build to vite" --scope app
    """


@contradictions_group.command("check")
@click.argument("text")
@scope_option
@owner_option
@click.option(
    "--fail-on-conflict", is_flag=True, help="Exit with code 2 when a contradiction is found."
)
@json_option
@handle_errors
def check_cmd(
    text: str, scope: str | None, owner: str | None, fail_on_conflict: bool, as_json: bool
) -> None:
    """Does TEXT ('-' for stdin) contradict current knowledge of the scope? Writes nothing.

    Exit code 0 whether or not something contradicts it, unless --fail-on-conflict (then 2).

    \b
    Example:
      recollect-graph contradictions check "We moved the build from webpack to vite" --scope app
      git log -1 --pretty=%B | recollect-graph contradictions check - --scope app --fail-on-conflict
    """
    scope = need(scope, "--scope", SCOPE_ENV)
    content = sys.stdin.read() if text == "-" else text
    if not content or not content.strip():
        raise InvalidInput("TEXT is empty")
    with open_rg(as_json) as rg:
        result = rg.check_contradiction(content, scope_id=scope, owner_id=owner)
    if as_json:
        emit_json(result.model_dump(mode="json"))
    elif result.ok:
        click.echo("no contradictions")
    else:
        rows = [
            {
                "type": c.type,
                "score": f"{c.score:.2f}",
                "existing": short(c.existing.content, 60),
                "reason": c.reason,
                "id": c.existing.id[:8],
            }
            for c in result.conflicts
        ]
        click.echo(table(rows))
        n = len(result.conflicts)
        click.echo(f"({n} contradiction{'s' if n != 1 else ''})")
    if fail_on_conflict and not result.ok:
        sys.exit(2)


# -- conflicts ---------------------------------------------------------------------------------
@click.group("conflicts")
def conflicts_group() -> None:
    """Open contradictions (CONTRADICTS edges) between current entries, and their resolution.

    \b
    Example:
      recollect-graph conflicts list --scope app
    """


@conflicts_group.command("list")
@scope_option
@page_options(50, 1000)
@click.option("--as-of", metavar="ISO", help="Record time: the conflicts open at a past moment.")
@click.option("--valid-at", metavar="ISO", help="Valid time: between entries both true then.")
@json_option
@handle_errors
def conflicts_list_cmd(
    scope: str | None,
    offset: int,
    limit: int,
    as_of: str | None,
    valid_at: str | None,
    as_json: bool,
) -> None:
    """List the open contradictions of a scope, strongest first, then newest.

    A page: --offset skipped, then at most --limit.

    \b
    Example:
      recollect-graph conflicts list --scope app --json
      recollect-graph conflicts list --scope app --as-of 2026-03-01
      recollect-graph conflicts list --scope app --offset 50 --limit 50
    """
    scope = need(scope, "--scope", SCOPE_ENV)
    page(offset, limit, 1000)
    with open_rg(as_json) as rg:
        found = rg.contradictions.conflicts(
            scope, limit=limit, offset=offset, as_of=as_of, valid_at=valid_at
        )
    if as_json:
        emit_json(
            [
                {
                    **c.model_dump(),
                    "source": c.source.model_dump(mode="json"),
                    "target": c.target.model_dump(mode="json"),
                }
                for c in found
            ]
        )
        return
    rows = [
        {
            "type": c.type,
            "score": f"{c.score:.2f}" if c.score is not None else "",
            "new": short(c.source.content, 40),
            "existing": short(c.target.content, 40),
            "reason": c.reason,
            "new_id": c.source.id,
            "existing_id": c.target.id,
        }
        for c in found
    ]
    click.echo(table(rows))
    click.echo(f"({len(found)} open conflict{'s' if len(found) != 1 else ''})")


@conflicts_group.command("resolve")
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--keep", required=True, metavar="ID", help="The entry that stays (A or B).")
@scope_option
@click.option("--forget-loser", is_flag=True, help="Hard-delete the loser instead of retiring it.")
@json_option
@handle_errors
def conflicts_resolve_cmd(
    a: str, b: str, keep: str, scope: str | None, forget_loser: bool, as_json: bool
) -> None:
    """Resolve the contradiction between entries A and B by keeping one (undoable).

    The loser is superseded by the keeper (retired), or hard-deleted with --forget-loser.

    \b
    Example:
      recollect-graph conflicts resolve 3f2a... 9b1c... --keep 3f2a... --scope app
    """
    scope = need(scope, "--scope", SCOPE_ENV)
    with open_rg(as_json) as rg:
        out = rg.resolve(scope, a, b, keep=keep, forget_loser=forget_loser)
    if as_json:
        emit_json(out.model_dump(mode="json"))
    else:
        what = "forgot" if forget_loser else "superseded"
        click.echo(f"kept {out.kept}; {what} {out.loser}{_undo_hint(out.operation_id)}")


# -- supersede ---------------------------------------------------------------------------------
@click.command("supersede")
@click.argument("entity", required=False)
@click.argument("relation", required=False)
@click.argument("new_value", required=False)
@click.option("--old", "old_id", metavar="ID", help="Entry form: the entry to retire.")
@click.option("--new", "new_id", metavar="ID", help="Entry form: the entry that replaces it.")
@click.option("--reason", help="Entry form: why (stored on the SUPERSEDES edge).")
@click.option("--create", is_flag=True, help="When nothing matches, record the new value anyway.")
@scope_option
@json_option
@handle_errors
def supersede_cmd(
    entity: str | None,
    relation: str | None,
    new_value: str | None,
    old_id: str | None,
    new_id: str | None,
    reason: str | None,
    create: bool,
    scope: str | None,
    as_json: bool,
) -> None:
    """Retire outdated knowledge (undoable), in one of two forms.

    ENTITY RELATION NEW_VALUE: every current entry of the scope whose claims give ENTITY
    another value of the slot RELATION names ("is", "uses", "owner", "owns", "is owned by",
    "build tool", or any verb phrase such as "runs on" or "is written in") is retired and
    superseded by an entry stating the new value (written if none exists). When nothing
    matches, nothing changes and the error lists the scope's closest claims (--create records
    the new value anyway).

    --old ID --new ID: the new entry supersedes the old one (same scope).

    \b
    Example:
      recollect-graph supersede "frontend build" uses vite --scope app
      recollect-graph supersede --old 3f2a... --new 9b1c... --scope app --reason "benchmark"
    """
    from recollect_graph.results import Supersession

    positional = [v for v in (entity, relation, new_value) if v is not None]
    entry_form = old_id is not None or new_id is not None
    out: Supersession | EntrySupersession
    if bool(positional) == entry_form:
        raise InvalidInput("give either ENTITY RELATION NEW_VALUE or --old ID --new ID (one form)")
    if create and entry_form:
        raise InvalidInput("--create applies only to the ENTITY RELATION NEW_VALUE form")
    if entry_form:
        if old_id is None or new_id is None:
            raise InvalidInput("the entry form needs both --old ID and --new ID")
        scope = need(scope, "--scope", SCOPE_ENV)
        with open_rg(as_json) as rg:
            out = rg.supersede_entry(old_id, new_id, scope_id=scope, reason=reason)
    else:
        if entity is None or relation is None or new_value is None:
            raise InvalidInput("give all three of ENTITY RELATION NEW_VALUE")
        if reason is not None:
            raise InvalidInput("--reason applies only to the --old/--new form")
        scope = need(scope, "--scope", SCOPE_ENV)
        with open_rg(as_json) as rg:
            out = rg.supersede(scope, entity, relation, new_value, create=create)
    if as_json:
        emit_json(out.model_dump(mode="json"))
        return
    made = " (new entry)" if isinstance(out, Supersession) and out.created else ""
    if out.operation_id is None:
        click.echo("nothing matched: nothing superseded, no operation recorded")
        if made:
            click.echo(f"the new value was written as {out.new_entry_id} (forget it to remove)")
        return
    click.echo(
        f"{out.new_entry_id}{made} supersedes {_ids(out.superseded)}{_undo_hint(out.operation_id)}"
    )


# -- invalidate --------------------------------------------------------------------------------
@click.command("invalidate")
@click.argument("pattern", required=False)
@scope_option
@click.option("--reason", help="Why the concept is outdated (required with PATTERN).")
@click.option("--replacement", help="Text of the entry that supersedes what is invalidated.")
@click.option("--from-git", is_flag=True, help="Find migrations in recent commit subjects.")
@click.option("--repo", metavar="PATH", help="With --from-git: the repository (default '.').")
@click.option("--days", type=int, help="With --from-git: how far back to look (default 7).")
@json_option
@handle_errors
def invalidate_cmd(
    pattern: str | None,
    scope: str | None,
    reason: str | None,
    replacement: str | None,
    from_git: bool,
    repo: str | None,
    days: int | None,
    as_json: bool,
) -> None:
    """Weaken entries that mention a deprecated concept (undoable).

    With --replacement, an entry with that text is written and supersedes them. With
    --from-git, commit subjects like "migrate X to Y" or "replace X with Y" invalidate X.

    \b
    Example:
      recollect-graph invalidate webpack --reason "moved" --replacement "We use vite" --scope app
      recollect-graph invalidate --from-git --repo . --days 14 --scope app --json
    """
    scope = need(scope, "--scope", SCOPE_ENV)
    if (pattern is None) != from_git:
        raise InvalidInput("give either PATTERN or --from-git (exactly one)")
    if from_git:
        if reason is not None or replacement is not None:
            raise InvalidInput("--reason and --replacement apply only to PATTERN")
        with open_rg(as_json) as rg:
            out = rg.contradictions.invalidate_from_git(
                scope, repo=repo or ".", days=7 if days is None else days
            )
        if as_json:
            emit_json(out)
            return
        for m in out["migrations"]:
            click.echo(
                f"{m['from']} -> {m['to']}: {len(m['invalidated'])} entries ({m['subject']})"
            )
        click.echo(
            f"invalidated {out['invalidated']} entries from {len(out['migrations'])} migrations"
        )
        return
    if repo is not None or days is not None:
        raise InvalidInput("--repo and --days apply only to --from-git")
    assert pattern is not None
    with open_rg(as_json) as rg:
        res = rg.invalidate(
            scope, pattern, reason=need(reason, "--reason"), replacement=replacement
        )
    if as_json:
        emit_json(res.model_dump(mode="json"))
        return
    if res.operation_id is None:
        click.echo(f"nothing matched {pattern!r}: nothing invalidated, no operation recorded")
        if res.replacement_id:
            click.echo(f"the replacement was written as {res.replacement_id} (forget it to remove)")
        return
    by = f"; superseded by {res.replacement_id}" if res.replacement_id else ""
    click.echo(f"invalidated {len(res.invalidated)} entries{by}{_undo_hint(res.operation_id)}")


# -- consolidate -------------------------------------------------------------------------------
@click.command("consolidate")
@scope_option
@click.option("--apply", "apply_", is_flag=True, help="Write the proposals (dry run otherwise).")
@json_option
@handle_errors
def consolidate_cmd(scope: str | None, apply_: bool, as_json: bool) -> None:
    """Propose merging near-duplicates, resolving conflicts and archiving what decayed.

    A dry run by default: nothing is written until --apply (one undoable operation).

    \b
    Example:
      recollect-graph consolidate --scope app
      recollect-graph consolidate --scope app --apply --json
    """
    scope = need(scope, "--scope", SCOPE_ENV)
    with open_rg(as_json) as rg:
        out = rg.consolidate(scope, dry_run=not apply_)
    if as_json:
        emit_json(out.model_dump(mode="json"))
        return
    merges, resolutions = out.merges, out.resolutions
    click.echo(f"{len(merges)} cluster{'s' if len(merges) != 1 else ''} to merge:")
    for m in merges:
        click.echo(f"  {m.similarity}  {', '.join(m.members)}")
    click.echo(f"{len(resolutions)} conflict resolutions proposed:")
    for r in resolutions:
        click.echo(f"  keep {r.keep} drop {r.drop} ({r.type})")
    click.echo(f"{len(out.archive)} entries to archive: {_ids(out.archive)}")
    if out.applied:
        made = _ids(out.consolidated_ids)
        click.echo(f"applied; consolidated entries: {made}{_undo_hint(out.operation_id)}")
    else:
        click.echo("(dry run; write with --apply)")


COMMANDS = (
    contradictions_group,
    conflicts_group,
    supersede_cmd,
    invalidate_cmd,
    consolidate_cmd,
)
