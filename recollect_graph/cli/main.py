"""Entry point of the ``recollect-graph`` command."""

from __future__ import annotations

import json
import logging
import sys
from typing import TYPE_CHECKING, Any

import click

from recollect_graph import __version__
from recollect_graph.cli.backup_cmd import COMMANDS as BACKUP_COMMANDS
from recollect_graph.cli.config_cmd import config_group
from recollect_graph.cli.context_cmd import COMMANDS as CONTEXT_COMMANDS
from recollect_graph.cli.contradiction_cmd import COMMANDS as CONTRADICTION_COMMANDS
from recollect_graph.cli.data_cmd import COMMANDS as DATA_COMMANDS
from recollect_graph.cli.demo_cmd import demo_cmd
from recollect_graph.cli.docs_cmd import COMMANDS as DOCS_COMMANDS
from recollect_graph.cli.entities_cmd import COMMANDS as ENTITY_COMMANDS
from recollect_graph.cli.knowledge_cmd import COMMANDS as KNOWLEDGE_COMMANDS
from recollect_graph.cli.learn_cmd import learn
from recollect_graph.cli.mcp_cmd import mcp_cmd
from recollect_graph.cli.memory_cmd import memory_group
from recollect_graph.cli.models_cmd import models_group
from recollect_graph.cli.neo4j_cmd import browser_cmd, neo4j_group
from recollect_graph.cli.notebooks_cmd import COMMANDS as NOTEBOOK_COMMANDS
from recollect_graph.cli.output import (
    JsonErrorsGroup,
    emit_json,
    handle_errors,
    json_option,
    progress,
    table,
)
from recollect_graph.cli.review_cmd import (
    reflect_cmd,
    review_cmd,
    suggestions_cmd,
    sweep_cmd,
)
from recollect_graph.cli.scopes_cmd import COMMANDS as SCOPE_COMMANDS
from recollect_graph.cli.sessions_cmd import learn_agents_cmd, recall_cmd, sessions_group
from recollect_graph.cli.topics_cmd import topics_group
from recollect_graph.errors import InvalidInput

if TYPE_CHECKING:
    pass


@click.group(cls=JsonErrorsGroup)
@click.version_option(__version__, prog_name="recollect-graph")
@click.option("-v", "--verbose", count=True, help="Log more (-v info, -vv debug) to stderr.")
def cli(verbose: int) -> None:
    """recollect-graph: knowledge memory on Neo4j.

    With no NEO4J_URI set, commands that need the database start (or attach to) the embedded
    Neo4j. Every command takes --json.

    \b
    Example:
      recollect-graph init && recollect-graph cypher 'SHOW INDEXES YIELD name, type, state'
    """
    level = logging.WARNING - 10 * min(verbose, 2)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    # The driver logs each failed connection attempt and retry; without -v the one ``Error:``
    # line the command ends with says it all (and stays the last line on stderr).
    logging.getLogger("neo4j").setLevel(logging.NOTSET if verbose else logging.CRITICAL)


cli.add_command(neo4j_group)
cli.add_command(browser_cmd, name="browser")  # = neo4j browser: the URL (guide opens first)
cli.add_command(memory_group)
cli.add_command(demo_cmd)
cli.add_command(mcp_cmd)
cli.add_command(sweep_cmd)
cli.add_command(reflect_cmd)
cli.add_command(sessions_group)
cli.add_command(learn)
learn.add_command(learn_agents_cmd)
cli.add_command(recall_cmd)
for _cmd in NOTEBOOK_COMMANDS:  # notebooks --to DIR, guide (Browser guide for Docker/Aura)
    cli.add_command(_cmd)
memory_group.add_command(suggestions_cmd)
memory_group.add_command(review_cmd)
for _cmd in KNOWLEDGE_COMMANDS:
    cli.add_command(_cmd)
for _cmd in CONTRADICTION_COMMANDS:
    cli.add_command(_cmd)
for _cmd in DATA_COMMANDS:  # export, import, stats, show
    cli.add_command(_cmd)
for _cmd in (*DOCS_COMMANDS, *ENTITY_COMMANDS):  # docs, entities
    cli.add_command(_cmd)
for _cmd in CONTEXT_COMMANDS:  # context, recommend
    cli.add_command(_cmd)
cli.add_command(topics_group)
cli.add_command(config_group)  # config [show|get|set|unset]
cli.add_command(models_group)  # models list / fetch
for _cmd in BACKUP_COMMANDS:  # backup, restore
    cli.add_command(_cmd)
for _cmd in SCOPE_COMMANDS:  # scopes list/drop/purge, edit
    cli.add_command(_cmd)


@cli.command("init")
@click.option(
    "--reset-vector-indexes",
    is_flag=True,
    help="Drop the vector indexes and stored vectors first (after changing the embedding model).",
)
@json_option
@handle_errors
def init_cmd(reset_vector_indexes: bool, as_json: bool) -> None:
    """Apply the schema (idempotent) and wait until every index is ONLINE.

    \b
    Example:
      recollect-graph init --json
    """
    from recollect_graph.facade import Recollect

    with Recollect.open(schema="skip", progress=progress(as_json)) as rg:
        report = rg.init_schema(reset_vector_indexes_=reset_vector_indexes)
    if as_json:
        emit_json(report.model_dump(mode="json"))
        return
    click.echo(
        f"schema applied in {report.seconds}s (new: {', '.join(report.applied) or 'none'}; "
        f"already applied: {', '.join(report.already_applied) or 'none'})"
    )
    if report.recreated_vector_indexes:
        click.echo(
            "recreated with their filter properties (scope-filtered search, once): "
            + ", ".join(report.recreated_vector_indexes)
        )
    click.echo(
        table(
            [i.model_dump() for i in report.indexes if i.type in ("VECTOR", "FULLTEXT")],
            ["name", "type", "labels", "properties", "state", "dimensions", "similarity"],
        )
    )
    click.echo(
        f"{len(report.constraints)} constraints; {len(report.indexes)} indexes, all ONLINE; "
        f"vectors: {report.embedding_model} ({report.dimensions} dims)"
    )


def _parse_param(raw: str) -> tuple[str, Any]:
    if "=" not in raw:
        raise InvalidInput(f"--param {raw!r}: expected NAME=VALUE")
    key, value = raw.split("=", 1)
    if not key.isidentifier():
        raise InvalidInput(f"--param {raw!r}: {key!r} is not a valid parameter name")
    try:
        return key, json.loads(value)
    except ValueError:
        return key, value


@cli.command("cypher")
@click.argument("query")
@click.option(
    "-p", "--param", "params", multiple=True, help="NAME=VALUE (VALUE parsed as JSON if it can be)."
)
@click.option("--write", is_flag=True, help="Allow the statement to write (read-only otherwise).")
@json_option
@handle_errors
def cypher_cmd(query: str, params: tuple[str, ...], write: bool, as_json: bool) -> None:
    """Run your own Cypher on the same connection as the library (read-only unless --write).

    Read-only, the statement may use reading clauses (MATCH, WITH, RETURN, UNWIND, UNION, CALL
    subqueries...), SHOW INDEXES / CONSTRAINTS / PROCEDURES / FUNCTIONS and a few procedures
    (db.labels, db.index.fulltext.queryNodes...). LOAD CSV, other procedures, TERMINATE and SHOW
    TRANSACTIONS, SHOW SETTINGS and administration commands are refused; with --write, LOAD CSV
    stays refused unless RECOLLECT_ALLOW_CSV_URLS=true (see docs/security.md).

    \b
    Example:
      recollect-graph cypher 'MATCH (e:Entry {scope_id: $s}) RETURN e.title LIMIT 5' -p s=demo
    """
    from recollect_graph.facade import Recollect

    values = dict(_parse_param(p) for p in params)
    if query == "-":
        query = sys.stdin.read()
    with Recollect.open(progress=progress(as_json)) as rg:
        rows = rg.query(query, values, write=write)
    if as_json:
        emit_json(rows)
    else:
        click.echo(table(rows))
        click.echo(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")


@cli.command("doctor")
@click.option("--no-models", is_flag=True, help="Skip loading the embedding and spaCy models.")
@click.option(
    "--deep", is_flag=True, help="Also check the graph's invariants (reads the whole graph)."
)
@json_option
@handle_errors
def doctor_cmd(no_models: bool, deep: bool, as_json: bool) -> None:
    """Check Java, Maven, the server, the schema, the indexes and the models.

    With --deep, also every invariant of the graph (`invariants`), each failing line naming the
    ids involved. Exit code 1 when any check fails.

    \b
    Example:
      recollect-graph doctor --deep --json
    """
    from recollect_graph.facade import Recollect
    from recollect_graph.settings import Settings

    checks = Recollect.doctor(Settings.from_env(), load_models=not no_models, deep=deep)
    if as_json:
        emit_json([c.model_dump() for c in checks])
    else:
        marks = {"ok": "ok  ", "warn": "WARN", "fail": "FAIL"}
        for c in checks:
            click.echo(f"[{marks[c.status]}] {c.name:<18} {c.detail}")
    if any(c.status == "fail" for c in checks):
        raise SystemExit(1)


@cli.command("invariants")
@click.option("--scope", help="Check only this scope (default: the whole graph).")
@click.option("--limit", type=int, default=1000, show_default=True, help="Most listed per check.")
@json_option
@handle_errors
def invariants_cmd(scope: str | None, limit: int, as_json: bool) -> None:
    """Check the graph's invariants: orphans, cross-scope edges, duplicates, broken chains.

    Read-only. Exit code 1 when any check finds a violation; each is listed with its ids.

    \b
    Example:
      recollect-graph invariants --scope app --json
    """
    from recollect_graph.facade import Recollect

    with Recollect.open(progress=progress(as_json)) as rg:
        found = rg.check_invariants(scope, limit=limit)
    if as_json:
        emit_json(found)
    else:
        for name, rows in found.items():
            click.echo(f"[{'FAIL' if rows else 'ok  '}] {name:<22} {len(rows)} found")
            for row in rows[:20]:
                click.echo(f"       {json.dumps(row, default=str)}")
    if any(found.values()):
        raise SystemExit(1)


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="recollect-graph")


if __name__ == "__main__":
    main()
