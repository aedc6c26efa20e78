"""Every command with ``--json``: whatever goes wrong, stdout is the one error object.

Walks the click tree, so a command added later is covered without editing this file. Two error
paths every command has: click refusing the command line (a bad option), and the database
being unreachable (an external NEO4J_URI on a closed loopback port; nothing is started).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import click
import pytest
from click.testing import CliRunner

from recollect_graph.cli.main import cli
from recollect_graph.db.host import free_port

#: Commands left out of the unreachable-database sweep, and why.
NOT_SWEPT = {
    "neo4j build": "builds the embedded server's launcher (Maven), no database involved",
    "neo4j start": "starts the embedded server",
    "neo4j stop": "stops the embedded server",
    "neo4j logs": "reads the embedded server's log files",
    "neo4j browser": "starts the embedded server if needed (left running: it is for Browser)",
    "browser": "= neo4j browser: starts the embedded server if needed, left running",
    "neo4j status": "a report: exit code 3 when the server is not running, its status the result",
    "demo": "starts the embedded server and leaves it running for Browser (make demo), by design",
    "guide": "serves the Browser guide and style until interrupted; no database involved",
    "mcp": "an MCP server: stdout is the protocol (tests/integration/test_mcp*.py test its errors)",
    "doctor": "a report: its failing checks are its result (a list), exit code 1",
}


def _commands(
    group: click.Group, path: tuple[str, ...] = ()
) -> Iterator[tuple[str, click.Command]]:
    for name, cmd in sorted(group.commands.items()):
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, (*path, name))
        elif any(p.name == "as_json" for p in cmd.params):
            yield " ".join((*path, name)), cmd


JSON_COMMANDS = list(_commands(cli))


def _args(cmd: click.Command) -> list[str]:
    """Values for the command's required arguments and options."""
    out: list[str] = []
    for p in cmd.params:
        if not p.required:
            continue
        value = p.type.choices[0] if isinstance(p.type, click.Choice) else "x"
        if isinstance(p, click.Option):
            out += [p.opts[0], str(value)]
        else:
            out.append(str(value))
    return out


def _error_object(stdout: str) -> dict[str, str]:
    obj = json.loads(stdout)
    assert isinstance(obj, dict) and set(obj) >= {"error", "message"}, obj
    assert set(obj) <= {"error", "message", "stored"}, obj
    assert obj["error"] and obj["message"]
    return obj


def test_the_walk_finds_the_commands() -> None:
    names = {n for n, _ in JSON_COMMANDS}
    assert {"get", "search", "remember", "config set", "sessions show", "docs list"} <= names


@pytest.mark.parametrize(("name", "cmd"), JSON_COMMANDS, ids=[n for n, _ in JSON_COMMANDS])
def test_a_bad_command_line_is_the_error_object(name: str, cmd: click.Command) -> None:
    r = CliRunner().invoke(cli, [*name.split(), *_args(cmd), "--no-such-option", "--json"])
    assert r.exit_code == 2, (r.stdout, r.stderr)
    obj = _error_object(r.stdout)
    assert obj["error"] == "usage" and "--no-such-option" in obj["message"]
    assert "No such option" in r.stderr  # click's own text stays on stderr


SWEPT = [(n, c) for n, c in JSON_COMMANDS if n not in NOT_SWEPT]


@pytest.mark.parametrize(("name", "cmd"), SWEPT, ids=[n for n, _ in SWEPT])
def test_an_unreachable_database_is_the_error_object(
    name: str, cmd: click.Command, tmp_path: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a command that writes a file writes it here
    env = {
        "NEO4J_URI": f"bolt://127.0.0.1:{free_port()}",
        "NEO4J_PASSWORD": "x" * 8,
        "RECOLLECT_SCOPE": "s",
        "RECOLLECT_OWNER": "kai",
        "RECOLLECT_CONFIG_DIR": str(tmp_path / "conf"),
        "RECOLLECT_DATA_DIR": str(tmp_path / "data"),
    }
    r = CliRunner().invoke(cli, [*name.split(), *_args(cmd), "--json"], env=env, input="")
    if r.exit_code == 0:  # needs no database with these arguments (config, learn list...)
        json.loads(r.stdout)
        return
    assert r.exit_code in (1, 2), (r.exit_code, r.stdout, r.stderr, r.exception)
    assert isinstance(r.exception, SystemExit), r.exception
    _error_object(r.stdout)
    assert r.stderr.strip().splitlines()[-1].startswith("Error"), r.stderr
