"""``recollect-graph demo``: the main job on real data no one wrote for it."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from recollect_graph.cli.common import open_rg, short
from recollect_graph.cli.output import emit_json, handle_errors, json_option, table
from recollect_graph.db.queries import cypher
from recollect_graph.errors import InvalidInput, RecollectError

if TYPE_CHECKING:
    pass


QUERIES = (
    "how do I start the local Neo4j server?",
    "what happens when the server is killed with kill -9?",
    "the embedding model changed and the vector dimensions no longer match",
    "which analyzer does the full-text index use?",
)


@click.command("demo")
@click.option("--scope", default="demo", show_default=True, help="Scope to load into.")
@click.option(
    "--path",
    "root",
    default=".",
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Project whose README, docs/ and git history are loaded.",
)
@click.option("--max-commits", default=300, show_default=True, help="Newest commits to load.")
@click.option("-q", "--query", "queries", multiple=True, help="Searches to run (default: a few).")
@json_option
@handle_errors
def demo_cmd(
    scope: str, root: Path, max_commits: int, queries: tuple[str, ...], as_json: bool
) -> None:
    """Load a project's docs and git history, link them, and search them.

    Every Markdown section of README.md and docs/ becomes an entry (heading as title), every
    commit a ``commit`` entry; sections are linked ``part_of`` their file, commits ``leads_to``
    the next, and commits that name a documented file ``references`` it. Re-running adds
    nothing: each item's source id is its idempotency key. Then a few searches show the score
    breakdown.

    \b
    Example:
      recollect-graph demo --path . -q "how are schema migrations recorded?"
    """
    from recollect_graph.services.documents.project_loader import load_project

    if not root.is_dir():
        raise InvalidInput(f"{root} is not a directory")
    loaded = load_project(root.resolve(), max_commits=max_commits)
    if not loaded.items:
        raise InvalidInput(f"nothing to load under {root}: no README.md, docs/ or git history")

    def say(msg: str) -> None:
        if not as_json:
            click.echo(msg, err=True)

    report: dict[str, Any] = {"scope": scope}
    with open_rg(as_json) as rg:
        t0 = time.monotonic()
        say(f"remembering {len(loaded.items)} items from {root.resolve()} into scope {scope!r}")
        bar: Any = click.progressbar(length=len(loaded.items), label="  remember", file=sys.stderr)
        with bar:
            done = [0]

            def tick(n: int, _total: int) -> None:
                bar.update(n - done[0])
                done[0] = n

            entries = rg.remember_many(
                loaded.items, scope_id=scope, owner_id="demo", progress=tick, batch_size=64
            )
        by_source = {item["source_id"]: e.id for item, e in zip(loaded.items, entries, strict=True)}
        made = 0
        for src, dst, rel, why in loaded.links:
            try:
                edge = rg.connect(by_source[src], by_source[dst], rel, reason=why, scope_id=scope)
                made += int(bool(edge.created))
            except RecollectError as e:
                say(f"  skipped link {rel}: {e}")
        report.update(
            items=len(entries),
            new_entries=sum(1 for e in entries if e.created),
            links=len(loaded.links),
            new_links=made,
            load_seconds=round(time.monotonic() - t0, 1),
        )
        say(
            f"  {report['new_entries']} new entries ({len(entries)} in all), "
            f"{made} new links, in {report['load_seconds']}s"
        )
        results = []
        for q in queries or QUERIES:
            hits = rg.search(q, scope_id=scope, limit=5)
            results.append({"query": q, "hits": [h.model_dump(mode="json") for h in hits]})
            if not as_json:
                click.echo(f"\nsearch: {q}")
                click.echo(
                    table(
                        [
                            {
                                "#": h.rank,
                                "score": f"{h.score:.3f}",
                                "sem": f"{h.signals.semantic:.2f}",
                                "kw": f"{h.signals.keyword:.2f}",
                                "graph": f"{h.signals.graph:.2f}",
                                "life": f"{h.signals.strength:.2f}",
                                "type": h.entry.entry_type,
                                "title": short(h.entry.title or h.entry.content, 70),
                            }
                            for h in hits
                        ]
                    )
                )
        report["searches"] = results
        browser = rg.server.browser_url if rg.server else None
    report["browser_url"] = browser
    # the story: commits referencing sections, leads-to chains, contradictions (a saved query)
    report["cypher"] = cypher("browser/story").text
    report["params"] = {"scope": scope}
    if as_json:
        emit_json(report)
        return
    click.echo("")
    if browser:
        click.echo(
            f"Explore it in Neo4j Browser: {browser}  (user neo4j, password: "
            "cat ~/.config/recollect-graph/neo4j-password)"
        )
    click.echo(f"and run:\n  :param scope => {json.dumps(scope)}\n")
    click.echo(report["cypher"])
