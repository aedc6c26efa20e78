"""The CLI against the session's server."""

from __future__ import annotations

import json

from click.testing import CliRunner

from recollect_graph.cli.main import cli
from recollect_graph.settings import Settings


def test_cypher_json_and_read_only(cli_env: Settings) -> None:
    runner = CliRunner()
    r = runner.invoke(
        cli,
        ["cypher", "RETURN $n + 1 AS m, $name AS name", "-p", "n=41", "-p", "name=kai", "--json"],
    )
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == [{"m": 42, "name": "kai"}]
    r = runner.invoke(cli, ["cypher", "CREATE (:CliProbe {id: 'x'})"])
    assert r.exit_code == 1 and "--write" in r.output
    r = runner.invoke(cli, ["cypher", "MATCH (p:CliProbe) RETURN count(p) AS n", "--json"])
    assert json.loads(r.stdout) == [{"n": 0}]
    r = runner.invoke(cli, ["cypher", "MERGE (:CliProbe {id: 'x'})", "--write"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(cli, ["cypher", "MATCH (p:CliProbe) RETURN count(p) AS n"])
    assert "1" in r.stdout and "(1 row)" in r.stdout
    runner.invoke(cli, ["cypher", "MATCH (p:CliProbe) DELETE p", "--write"])


def test_status_json(cli_env: Settings) -> None:
    r = CliRunner().invoke(cli, ["neo4j", "status", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["running"] and data["bolt_port"] == cli_env.bolt_port


def test_init_json(cli_env: Settings) -> None:
    r = CliRunner().invoke(cli, ["init", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["dimensions"] == 384
    kinds = {i["type"] for i in data["indexes"]}
    assert {"VECTOR", "FULLTEXT", "RANGE"} <= kinds


def test_doctor_all_green(cli_env: Settings) -> None:
    r = CliRunner().invoke(cli, ["doctor", "--json"])
    checks = {c["name"]: c for c in json.loads(r.stdout)}
    assert r.exit_code == 0, r.output
    for name in (
        "java",
        "local server",
        "connection",
        "schema version",
        "indexes",
        "vector dimensions",
        "embedding model",
        "spaCy pipeline",
    ):
        assert checks[name]["status"] == "ok", checks[name]


def test_doctor_fails_when_server_is_down(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("RECOLLECT_DATA_DIR", str(tmp_path))
    r = CliRunner().invoke(cli, ["doctor", "--no-models", "--json"])
    assert r.exit_code == 1
    checks = {c["name"]: c for c in json.loads(r.stdout)}
    assert checks["local server"]["status"] == "fail"
    assert "recollect-graph neo4j start" in checks["local server"]["detail"]


def test_logs(cli_env: Settings) -> None:
    r = CliRunner().invoke(cli, ["neo4j", "logs", "--json"])
    assert r.exit_code == 0
    assert any("NEO4J_READY" in line for line in json.loads(r.stdout)["lines"])
