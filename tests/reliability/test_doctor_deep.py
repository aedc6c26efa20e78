"""``recollect-graph doctor --deep``: the schema checks and every invariant, with the ids found.

Run against the reliability tests' own server (its whole graph is kept clean by every test that
uses it), once clean and once with damage made by hand in a scope of its own (removed after).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import pytest
from click.testing import CliRunner, Result

from recollect_graph import Recollect
from recollect_graph.cli.main import cli
from recollect_graph.services.admin.doctor import run_doctor
from recollect_graph.services.admin.invariants import CHECKS
from tests.reliability.support import Crashable


@pytest.fixture
def doctor_env(crashable: Crashable, rg: Recollect, monkeypatch: pytest.MonkeyPatch) -> Crashable:
    crashable.recollect(rg.embedder).close()  # up, with the schema applied
    for k, v in crashable.env().items():
        if k.startswith("RECOLLECT_"):
            monkeypatch.setenv(k, v)
    for k in ("NEO4J_URI", "NEO4J_PASSWORD"):
        monkeypatch.delenv(k, raising=False)
    return crashable


@pytest.fixture
def damaged(doctor_env: Crashable, rg: Recollect) -> Iterator[dict[str, str]]:
    """A scope with a chunk no document holds and a claim whose entry is gone."""
    r = doctor_env.recollect(rg.embedder)
    scope = f"doctor-{uuid.uuid4().hex[:8]}"
    ids = {"scope": scope, "chunk": str(uuid.uuid4()), "claim": str(uuid.uuid4())}
    r.query(
        "CREATE (:Chunk {id: $chunk, scope_id: $scope, text: 'orphan'}) "
        "CREATE (:Claim {id: $claim, scope_id: $scope, entry_id: 'gone', subject: 'x'})",
        ids,
        write=True,
    )
    yield ids
    r.query("MATCH (n {scope_id: $scope}) DETACH DELETE n", {"scope": scope}, write=True)
    r.close()


def _doctor(*args: str) -> tuple[Result, dict[str, dict[str, object]]]:
    r = CliRunner().invoke(cli, ["doctor", "--no-models", *args, "--json"])
    return r, {c["name"]: c for c in json.loads(r.stdout)}


def test_doctor_deep_on_a_clean_graph(doctor_env: Crashable) -> None:
    r, checks = _doctor("--deep")
    assert r.exit_code == 0, r.stdout
    for name in ("connection", "schema version", "indexes", "vector dimensions"):
        assert checks[name]["status"] == "ok", checks[name]
    for name in CHECKS:
        assert checks[f"invariant {name}"] == {
            "name": f"invariant {name}",
            "status": "ok",
            "detail": "none found",
            "data": {},
        }
    _, plain = _doctor()
    assert not any(n.startswith("invariant") for n in plain)  # only with --deep


def test_doctor_deep_names_the_ids_of_each_violation(
    doctor_env: Crashable, damaged: dict[str, str]
) -> None:
    r, checks = _doctor("--deep")
    assert r.exit_code == 1
    chunks, claims = checks["invariant chunks"], checks["invariant claims"]
    assert chunks["status"] == claims["status"] == "fail"
    assert damaged["chunk"] in str(chunks["detail"]) and damaged["claim"] in str(claims["detail"])
    assert chunks["data"] == {
        "violations": [{"id": damaged["chunk"], "scope_id": damaged["scope"]}]
    }
    assert any(v["id"] == damaged["claim"] for v in claims["data"]["violations"])  # type: ignore[index]
    failing = {n for n, c in checks.items() if c["status"] == "fail"}
    assert failing <= {"invariant chunks", "invariant claims", "invariant entities"}, failing
    text = CliRunner().invoke(cli, ["doctor", "--no-models", "--deep"])
    assert text.exit_code == 1
    line = next(x for x in text.stdout.splitlines() if "invariant chunks" in x)
    assert line.startswith("[FAIL]") and damaged["chunk"] in line
    # the library call is the same
    found = {c.name: c for c in run_doctor(doctor_env.settings, load_models=False, deep=True)}
    assert found["invariant chunks"].status == "fail"
