"""CLI: sessions (list, show, turns, forks, fork-parent, handoff, add, processed), recall, learn."""

from __future__ import annotations

import os
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
    parse_json_items,
    read_input,
    reader_option,
    scope_option,
    short,
    time_options,
)
from recollect_graph.cli.output import emit_json, handle_errors, json_option, table
from recollect_graph.cli.recall_walk import interactive_recall, print_recall


@click.group("sessions")
def sessions_group() -> None:
    """Agent sessions: conversations as turns, forks, handoffs, and Lore's processed sessions.

    \b
    Example:
      recollect-graph sessions list --scope me --json
    """


@sessions_group.command("processed")
@scope_option
@owner_option
@json_option
@handle_errors
def processed_cmd(scope: str | None, owner: str | None, as_json: bool) -> None:
    """Session ids that have been reflected on.

    \b
    Example:
      recollect-graph sessions processed --scope app
    """
    with open_rg(as_json) as rg:
        out = rg.memories.in_scope(scope or rg.settings.default_scope, owner).processed_sessions()
    if as_json:
        emit_json(out)
    else:
        click.echo("\n".join(out["session_ids"]) or "(none)")


@sessions_group.command("list")
@scope_option
@click.option("--forks", "forks_only", is_flag=True, help="Only forks (sub-agent sessions).")
@click.option("--cwd", help="Only sessions under this working directory.")
@page_options(50, 10_000)
@json_option
@handle_errors
def list_cmd(
    scope: str | None,
    forks_only: bool,
    cwd: str | None,
    offset: int,
    limit: int,
    as_json: bool,
) -> None:
    """Sessions of a scope, newest first (a page: --offset skipped, then at most --limit).

    \b
    Example:
      recollect-graph sessions list --scope me --forks
      recollect-graph sessions list --scope me --offset 50 --limit 50
    """
    page(offset, limit, 10_000)
    with open_rg(as_json) as rg:
        rows = rg.sessions.list(
            need_scope(scope), forks_only=forks_only, cwd=cwd, limit=limit, offset=offset
        )
    if as_json:
        emit_json(rows)
        return
    click.echo(
        table(
            [
                {
                    "id": r["id"],
                    "started": str(r.get("started_at") or "")[:16],
                    "turns": r.get("turn_count"),
                    "fork": "fork" if r.get("fork_marker") else "",
                    "cwd": r.get("cwd") or "",
                    "about": short(
                        ((r.get("topics") or [None])[0]) or r.get("initial_request"), 50
                    ),
                }
                for r in rows
            ]
        )
    )


@sessions_group.command("show")
@click.argument("session_id")
@scope_option
@json_option
@handle_errors
def show_cmd(session_id: str, scope: str | None, as_json: bool) -> None:
    """One session: its index (summary, keywords, decisions), forks, identifiers, markers.

    \b
    Example:
      recollect-graph sessions show 5f0c2a1e --scope me --json
    """
    with open_rg(as_json) as rg:
        s = rg.sessions.get(session_id, scope_id=need_scope(scope))
    if as_json:
        emit_json(s)
        return
    for key in (
        "id",
        "title",
        "cwd",
        "origin",
        "started_at",
        "last_turn_at",
        "turn_count",
        "fork_marker",
        "parent_pointer",
        "summary",
    ):
        if s.get(key) not in (None, ""):
            click.echo(f"{key:15} {s[key]}")
    for key in ("keywords", "topics", "decisions", "forks", "continues", "continued_by"):
        if s.get(key):
            click.echo(f"{key:15} {', '.join(map(str, s[key]))}")
    if s.get("identifiers"):
        click.echo(
            "identifiers     "
            + ", ".join(f"{i['namespace']}:{i['value']}" for i in s["identifiers"][:12])
        )
    if s.get("handoff"):
        click.echo(f"handoff         {s['handoff']}")


@sessions_group.command("turns")
@click.argument("session_id")
@scope_option
@json_option
@handle_errors
def turns_cmd(session_id: str, scope: str | None, as_json: bool) -> None:
    """A session's turns in order.

    \b
    Example:
      recollect-graph sessions turns 5f0c2a1e --scope me
    """
    with open_rg(as_json) as rg:
        turns = rg.sessions.turns(session_id, scope_id=need_scope(scope))
    if as_json:
        emit_json(turns)
        return
    for t in turns:
        click.echo(f"[{str(t.get('at') or '')[:16]}] {t.get('speaker')}: {short(t['text'], 200)}")


@sessions_group.command("forks")
@scope_option
@page_options(50, 10_000)
@json_option
@handle_errors
def forks_cmd(scope: str | None, offset: int, limit: int, as_json: bool) -> None:
    """Forks of a scope and where each resumes, newest first (a page: --offset, --limit).

    \b
    Example:
      recollect-graph sessions forks --scope me --limit 10
    """
    page(offset, limit, 10_000)
    with open_rg(as_json) as rg:
        rows = rg.sessions.forks(need_scope(scope), limit=limit, offset=offset)
    if as_json:
        emit_json(rows)
        return
    click.echo(
        table(
            [
                {
                    "fork": r["id"],
                    "parent": r["parent"]["parent_pointer"] or "",
                    "resume": r["parent"]["resume"]
                    or ("(parent gone)" if r["parent"]["missing_parent"] else ""),
                }
                for r in rows
            ]
        )
    )


@sessions_group.command("fork-parent")
@click.argument("session_id")
@scope_option
@json_option
@handle_errors
def fork_parent_cmd(session_id: str, scope: str | None, as_json: bool) -> None:
    """Where a fork resumes: its top-level ancestor and the resume command.

    \b
    Example:
      recollect-graph sessions fork-parent a3f9c012 --scope me
    """
    with open_rg(as_json) as rg:
        p = rg.fork_parent(session_id, scope_id=need_scope(scope))
    if as_json:
        emit_json(p.model_dump())
        return
    if not p.fork_marker:
        click.echo(f"{session_id} is not a fork." + (f" Resume: {p.resume}" if p.resume else ""))
    elif p.resume:
        click.echo(f"parent: {p.parent_pointer} (via {' -> '.join(p.chain)})")
        click.echo(f"resume: {p.resume}")
    elif p.missing_parent:
        click.echo(f"parent {p.missing_parent} has no record any more: not resumable.")
    else:
        click.echo(f"parent: {p.parent_pointer} (working directory unknown)")


@sessions_group.command("handoff")
@click.argument("session_id")
@scope_option
@click.option("--what", help="What was done (omit to show the current handoff).")
@click.option("--next", "next_", help="What comes next.")
@click.option("--artifact", "artifacts", multiple=True, help="A file, PR or link (repeatable).")
@click.option("--blocker", "blockers", multiple=True, help="What blocks progress (repeatable).")
@json_option
@handle_errors
def handoff_cmd(
    session_id: str,
    scope: str | None,
    what: str | None,
    next_: str | None,
    artifacts: tuple[str, ...],
    blockers: tuple[str, ...],
    as_json: bool,
) -> None:
    """Record (with --what) or show a session's handoff.

    \b
    Example:
      recollect-graph sessions handoff 5f0c2a1e --what "CI cache fixed; next: docs" --scope me
    """
    with open_rg(as_json) as rg:
        if what is None:
            out = rg.sessions.get_handoff(session_id, scope_id=need_scope(scope))
        else:
            out = rg.sessions.handoff(
                session_id,
                scope_id=need_scope(scope),
                what=what,
                next=next_,
                artifacts=artifacts,
                blockers=blockers,
            )
    if as_json:
        emit_json(out)
    elif out is None:
        click.echo("(no handoff)")
    else:
        for k in ("what", "next", "artifacts", "blockers"):
            if out.get(k):
                click.echo(f"{k:10} {out[k]}")


@sessions_group.command("add")
@click.argument("session_id")
@click.argument("path", type=click.Path(dir_okay=False, allow_dash=True))
@scope_option
@owner_option
@click.option("--cwd", help="Working directory of the conversation.")
@click.option("--title", help="A title for the session.")
@json_option
@handle_errors
def add_cmd(
    session_id: str,
    path: str,
    scope: str | None,
    owner: str | None,
    cwd: str | None,
    title: str | None,
    as_json: bool,
) -> None:
    """Add turns ({id, speaker, text, at} as JSON or JSON Lines; - for stdin) to a session.

    \b
    Example:
      recollect-graph sessions add chat-7 turns.jsonl --scope me --owner kai
    """
    turns = parse_json_items(read_input(path), "stdin" if path == "-" else path)
    with open_rg(as_json) as rg:
        out = rg.sessions.add_turns(
            session_id,
            turns,
            scope_id=need_scope(scope),
            owner_id=need(owner, "--owner", "RECOLLECT_OWNER"),
            cwd=cwd,
            title=title,
        )
    if as_json:
        emit_json(out.__dict__)
    else:
        click.echo(f"{session_id}: {out.added} turns added, {out.existing} already there")


def default_agents_path() -> Path:
    """Claude Code's projects folder (``CLAUDE_CONFIG_DIR`` or ``~/.claude``)."""
    base = os.environ.get("CLAUDE_CONFIG_DIR") or str(Path.home() / ".claude")
    return Path(base) / "projects"


@click.command("agents")
@click.option(
    "--path",
    "path",
    type=click.Path(file_okay=False),
    help="Claude Code config dir, its projects/ folder, or one project folder "
    "[default: $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects].",
)
@scope_option
@owner_option
@click.option(
    "--no-decisions",
    is_flag=True,
    help="Do not store each session's decisions as entries (FROM_SESSION).",
)
@json_option
@handle_errors
def learn_agents_cmd(
    path: str | None, scope: str | None, owner: str | None, no_decisions: bool, as_json: bool
) -> None:
    """Ingest coding-agent transcripts (sessions, forks, captures) for recall.

    Re-running is idempotent; a grown transcript adds only its new turns; malformed lines are
    counted and skipped.

    \b
    Example:
      recollect-graph learn agents --scope me --owner kai
    """
    root = Path(path) if path else default_agents_path()
    with open_rg(as_json) as rg:
        bar: Any = None
        if not as_json or sys.stderr.isatty():
            bar = click.progressbar(length=1, label="  sessions", file=sys.stderr)

        def step(done: int, total: int, _sid: str) -> None:
            if bar is not None:
                bar.length = total
                bar.update(1)

        try:
            report = rg.sessions.ingest_transcripts(
                root,
                scope_id=need_scope(scope),
                owner_id=need(owner, "--owner", "RECOLLECT_OWNER"),
                progress=step,
                knowledge=None if no_decisions else rg.knowledge,
            )
        finally:
            if bar is not None:
                bar.render_finish()
    if as_json:
        emit_json(report.as_dict())
        return
    click.echo(
        f"{report.sessions} sessions in {report.files} files: {report.ingested} ingested, "
        f"{report.unchanged} unchanged, {report.turns_added} turns added, {report.forks} forks"
        f" ({len(report.orphan_forks)} with no parent record), "
        f"{report.decisions_learned} decisions stored, "
        f"{report.malformed_lines} malformed lines skipped"
    )


@click.command("recall")
@click.argument("text")
@scope_option
@reader_option
@click.option("--hint", "hints", multiple=True, help="Extra recall context (repeatable).")
@click.option("--attempt", default=1, show_default=True, type=click.IntRange(1, 10))
@click.option("--max-attempts", default=3, show_default=True, type=click.IntRange(1, 10))
@click.option("--limit", default=5, show_default=True, type=click.IntRange(1, 50))
@time_options
@click.option(
    "--interactive/--no-interactive",
    default=None,
    help="Walk candidates one at a time [default: when on a terminal].",
)
@json_option
@handle_errors
def recall_cmd(
    text: str,
    scope: str | None,
    owner: str | None,
    hints: tuple[str, ...],
    attempt: int,
    max_attempts: int,
    limit: int,
    as_of: str | None,
    valid_at: str | None,
    interactive: bool | None,
    as_json: bool,
) -> None:
    """Find the past session you vaguely remember (the Anamnesis protocol).

    On a terminal it shows one candidate at a time: Recognize it, Refine with a probe, or
    Reorient with another description. With --json it answers once.

    \b
    Example:
      recollect-graph recall "the session where the CI cache drove me nuts" --scope me
    """
    scope_id = need_scope(scope)
    if interactive is None:
        interactive = not as_json and sys.stdin.isatty() and sys.stdout.isatty()
    when = {"as_of": as_of, "valid_at": valid_at}
    with open_rg(as_json) as rg:
        if as_json or not interactive:
            r = rg.recall(
                text,
                scope_id=scope_id,
                attempt=attempt,
                hints=hints,
                max_attempts=max_attempts,
                limit=limit,
                owner_id=owner,
                **when,
            )
            if as_json:
                emit_json(r.model_dump(mode="json"))
            else:
                print_recall(r)
            return
        interactive_recall(
            rg, text, scope_id, owner, list(hints), attempt, max_attempts, limit, when
        )
