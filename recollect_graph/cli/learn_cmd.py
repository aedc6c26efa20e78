"""``recollect-graph learn ...``: learn from git, shell history, CI reports, notes and plugins.

Every subcommand takes --scope and --owner (or RECOLLECT_SCOPE / RECOLLECT_OWNER), --since,
--dry-run and --json. The learner is set up (its paths checked) before the database is opened,
so a bad path is one error line and nothing is written. A progress bar goes to stderr.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import click

from recollect_graph.cli.common import need, open_rg, owner_option, scope_option, short
from recollect_graph.cli.output import emit_json, handle_errors, json_option, table
from recollect_graph.errors import InvalidInput

if TYPE_CHECKING:
    from recollect_graph.learners import Learner, LearnResult


F = TypeVar("F", bound=Callable[..., Any])


def learn_options(fn: F) -> F:
    """Add --scope, --owner, --since, --dry-run, --batch-size and --json."""
    fn = json_option(fn)
    fn = click.option(
        "--batch-size", type=int, default=None, help="Entries per transaction (default 128)."
    )(fn)
    fn = click.option("--dry-run", is_flag=True, help="Show what would be stored; write nothing.")(
        fn
    )
    fn = click.option(
        "--since",
        metavar="WHEN",
        help="Learn from this time (ISO date or e.g. '30 days ago') instead of the cursor.",
    )(fn)
    return owner_option(scope_option(fn))


class _Bars:
    """One click progress bar per source, on stderr."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.source: str | None = None
        self.bar: Any = None

    def __call__(self, source: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        if source != self.source:
            self.close()
            self.source = source
            self.bar = click.progressbar(length=total, label=f"learning {source}", file=sys.stderr)
            self.bar.__enter__()
        self.bar.update(done - self.bar.pos)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


def run_learners(
    learners: Sequence[Learner],
    *,
    scope: str | None,
    owner: str | None,
    since: str | None,
    dry_run: bool,
    batch_size: int | None,
    as_json: bool,
) -> None:
    """Run ``learners`` and print their results (shared by every ``learn`` subcommand)."""
    from recollect_graph.learners import parse_since

    scope = need(scope, "--scope", "RECOLLECT_SCOPE")
    owner = need(owner, "--owner", "RECOLLECT_OWNER")
    start = parse_since(since)
    if batch_size is not None and batch_size < 1:
        raise InvalidInput("--batch-size must be at least 1")
    bars = _Bars(not as_json or sys.stderr.isatty())
    try:
        with open_rg(as_json) as rg:
            results = rg.learners.learn(
                scope,
                owner,
                list(learners),
                since=start,
                dry_run=dry_run,
                progress=bars,
                batch_size=batch_size,
            )
    finally:
        bars.close()
    if as_json:
        emit_json({name: r.to_dict() for name, r in results.items()})
    else:
        for name, r in results.items():
            _print_result(name, r)
    failed = [(n, r) for n, r in results.items() if r.failed]
    if failed:
        name, r = failed[0]
        click.echo(f"Error: {name}: {r.errors[0]['error']}", err=True)
        sys.exit(1)


def _print_result(name: str, r: LearnResult) -> None:
    skipped = ", ".join(f"{reason} {n}" for reason, n in r.skipped.most_common())
    verb = "would learn" if r.dry_run else "learned"
    count = r.would_learn if r.dry_run else r.learned
    line = f"{name}: fetched {r.fetched}, {verb} {count}, skipped {sum(r.skipped.values())}"
    click.echo(line + (f" ({skipped})" if skipped else "") + f", errors {len(r.errors)}")
    for p in r.patterns:
        what = f"{p['old']} -> {p['new']}" if p.get("old") else p["summary"]
        retired = f" (retired {p['superseded']} entries)" if p.get("superseded") else ""
        click.echo(f"  pattern {p['type']}: {what}{retired}")
    if r.superseded and not r.dry_run:
        click.echo(f"  superseded {r.superseded} older entries")
    for e in r.errors[:5]:
        click.echo(f"  error {e.get('event') or e.get('stage')}: {short(e['error'], 100)}")
    if r.dry_run and r.preview:
        click.echo(
            table(
                [
                    {
                        "kind": p["kind"],
                        "type": p["entry_type"],
                        "source_id": short(p["source_id"], 40),
                        "content": short(p["content"], 70),
                    }
                    for p in r.preview[:50]
                ]
            )
        )
        if r.would_learn > 50:
            click.echo(f"  ... and {r.would_learn - 50} more (--json shows up to 500)")


@click.group("learn")
def learn() -> None:
    """Learn from git history, shell history, CI reports and notes (and learner plugins).

    Each source keeps a cursor per scope, so a re-run learns only what is new and never stores
    anything twice; an interrupted run resumes where it stopped.

    \b
    Example:
      recollect-graph learn git --repo . --scope app --owner kai
      recollect-graph learn ci reports/ --scope app --owner kai --dry-run
    """


@learn.command("git")
@click.option(
    "--repo", "--path", "repo", default=".", show_default=True, help="A path in the repository."
)
@click.option("--head-only", is_flag=True, help="Only HEAD's history, not every branch.")
@learn_options
@handle_errors
def git_cmd(repo: str, head_only: bool, **opts: Any) -> None:
    """Commits (with bodies, paths, areas and migrations) of a git repository.

    \b
    Example:
      recollect-graph learn git --repo ~/src/app --scope app --owner kai --since '90 days ago'
    """
    from recollect_graph.learners.git import GitLearner

    run_learners([GitLearner(repo, all_branches=not head_only)], **opts)


@learn.command("shell")
@click.option("--file", "files", multiple=True, metavar="PATH", help="A history file (repeatable).")
@learn_options
@handle_errors
def shell_cmd(files: tuple[str, ...], **opts: Any) -> None:
    """Shell history (bash, zsh): distinct commands, secrets redacted before storing.

    Without --file: $HISTFILE, ~/.zsh_history and ~/.bash_history, those that exist.

    \b
    Example:
      recollect-graph learn shell --file ~/.zsh_history --scope me --owner kai --dry-run
    """
    from recollect_graph.learners.shell import ShellLearner

    run_learners([ShellLearner(list(files) or None)], **opts)


@learn.command("ci")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@learn_options
@handle_errors
def ci_cmd(paths: tuple[str, ...], **opts: Any) -> None:
    """JUnit XML test reports (files or folders): failures, resolutions, flaky tests.

    \b
    Example:
      recollect-graph learn ci build/test-results/ --scope app --owner ci
    """
    from recollect_graph.learners.ci import CiLearner

    run_learners([CiLearner(list(paths))], **opts)


@learn.command("notes")
@click.argument("folder", metavar="DIR")
@learn_options
@handle_errors
def notes_cmd(folder: str, **opts: Any) -> None:
    """A folder of Markdown or text notes: one entry per note or section.

    \b
    Example:
      recollect-graph learn notes ~/notes --scope me --owner kai
    """
    from recollect_graph.learners.notes import NotesLearner

    run_learners([NotesLearner(folder)], **opts)


def _option(raw: str) -> tuple[str, Any]:
    if "=" not in raw:
        raise InvalidInput(f"--option {raw!r}: expected KEY=VALUE")
    key, value = raw.split("=", 1)
    if not key.isidentifier():
        raise InvalidInput(f"--option {raw!r}: {key!r} is not a valid option name")
    try:
        return key, json.loads(value)
    except ValueError:
        return key, value


@learn.command("run")
@click.option("--source", "sources", multiple=True, required=True, help="Learner name.")
@click.option(
    "--option", "options", multiple=True, metavar="KEY=VALUE", help="Learner option (JSON value)."
)
@learn_options
@handle_errors
def run_cmd(sources: tuple[str, ...], options: tuple[str, ...], **opts: Any) -> None:
    """Any learner by name: built-in or a plugin (see `learn list`).

    --option values go to every --source given (VALUE is parsed as JSON when it can be).

    \b
    Example:
      recollect-graph learn run --source jira --option project=APP --scope app --owner kai
    """
    from recollect_graph.learners import registry

    values = dict(_option(o) for o in options)
    run_learners([registry.create(s, **values) for s in sources], **opts)


@learn.command("all")
@click.option("--repo", default=".", show_default=True, help="A path in the git repository.")
@click.option("--history", "history", multiple=True, metavar="PATH", help="Shell history file.")
@click.option("--ci", "ci_paths", multiple=True, metavar="PATH", help="JUnit report file/folder.")
@click.option("--notes", "notes", metavar="DIR", help="Notes folder.")
@learn_options
@handle_errors
def all_cmd(
    repo: str, history: tuple[str, ...], ci_paths: tuple[str, ...], notes: str | None, **opts: Any
) -> None:
    """Git (--repo), shell history (found or --history), and CI reports and notes when given.

    \b
    Example:
      recollect-graph learn all --ci reports/ --notes docs/ --scope app --owner kai
    """
    from recollect_graph.learners import LearnerError
    from recollect_graph.learners.ci import CiLearner
    from recollect_graph.learners.git import GitLearner
    from recollect_graph.learners.notes import NotesLearner
    from recollect_graph.learners.shell import ShellLearner

    learners: list[Learner] = [GitLearner(repo)]
    if history:
        learners.append(ShellLearner(list(history)))
    else:
        with contextlib.suppress(LearnerError):  # no shell history on this machine
            learners.append(ShellLearner())
    if ci_paths:
        learners.append(CiLearner(list(ci_paths)))
    if notes:
        learners.append(NotesLearner(notes))
    run_learners(learners, **opts)


@learn.command("list")
@json_option
@handle_errors
def list_cmd(as_json: bool) -> None:
    """The learners available: built-in and plugins (entry-point group recollect_graph.learners).

    \b
    Example:
      recollect-graph learn list --json
    """
    from recollect_graph.learners import registry

    infos = registry.available()
    if as_json:
        emit_json([i.to_dict() for i in infos])
        return
    click.echo(
        table(
            [
                {
                    "name": i.name,
                    "origin": i.origin,
                    "ok": "yes" if i.ok else "NO",
                    "from": i.distribution or "",
                    "description": short(i.description, 70),
                }
                for i in infos
            ]
        )
    )


@learn.command("status")
@scope_option
@json_option
@handle_errors
def status_cmd(scope: str | None, as_json: bool) -> None:
    """Each learner's cursor in a scope: how far it has learned, whether a run is open.

    \b
    Example:
      recollect-graph learn status --scope app
    """
    scope = need(scope, "--scope", "RECOLLECT_SCOPE")
    with open_rg(as_json) as rg:
        cursors = rg.learners.cursors(scope)
    if as_json:
        emit_json(cursors)
        return
    click.echo(
        table(
            [
                {
                    "source": c.get("source"),
                    "position": c.get("position"),
                    "open": c.get("run_open"),
                    "learned": c.get("learned"),
                    "runs": c.get("runs"),
                    "id": c.get("id"),
                }
                for c in cursors
            ]
        )
    )
