"""Learners against the real Neo4j: provenance, idempotent re-runs, crash and resume, migrations."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from recollect_graph import Recollect
from recollect_graph.learners.ci import CiLearner
from recollect_graph.learners.git import GitLearner
from recollect_graph.learners.notes import NotesLearner
from recollect_graph.learners.shell import ShellLearner
from recollect_graph.redaction import marker
from tests.helpers import assert_one_line_error, data, stored_text
from tests.unit.test_learners_ci import pytest_report
from tests.unit.test_learners_git import make_repo
from tests.unit.test_learners_notes import DEPLOY
from tests.unit.test_learners_shell import SECRETS, bash_history, zsh_history
from tests.unit.test_redaction import SHELL_REGRESSIONS

KEPT = ("users", "webpack", "docs", "search", "fix", "migrate", "pagination", "revert", "tidy")


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    r, shas = make_repo(tmp_path_factory.mktemp("learn") / "shop")
    return r.path, shas


def entries(rg: Recollect, scope: str) -> dict[str | None, dict[str, Any]]:
    rows = rg.query(
        "MATCH (e:Entry {scope_id: $s}) RETURN e {.*, embedding: null} AS e", {"s": scope}
    )
    return {r["e"].get("source_id") or r["e"]["content"]: r["e"] for r in rows}


def graph(rg: Recollect, scope: str) -> dict[str, Any]:
    """The scope as comparable data: entries by source id, edges, operations, cursor."""
    es = rg.query(
        "MATCH (e:Entry {scope_id: $s}) RETURN coalesce(e.source_id, e.content) AS k, "
        "e.entry_type AS type, e.retired_at IS NOT NULL AS retired, e.confidence AS conf, "
        "e.content_hash AS hash, e.tags AS tags, e.owner_id AS owner, e.metadata AS meta, "
        "e.source_type AS st, e.pinned AS pinned ORDER BY k",
        {"s": scope},
    )
    edges = rg.query(
        "MATCH (a:Entry {scope_id: $s})-[r]->(b:Entry) RETURN coalesce(a.source_id, a.content) "
        "AS a, type(r) AS rel, coalesce(b.source_id, b.content) AS b ORDER BY a, rel, b",
        {"s": scope},
    )
    ops = rg.query(
        "MATCH (o:Operation {scope_id: $s}) RETURN o.kind AS kind, o.reason AS reason, "
        "size(o.entry_ids) AS n ORDER BY kind, reason",
        {"s": scope},
    )
    cursors = [
        {k: c.get(k) for k in ("source", "position", "run_open", "learned", "runs")}
        for c in rg.learners.cursors(scope)
    ]
    return {"entries": es, "edges": edges, "ops": ops, "cursors": cursors}


def test_git_learning_stores_provenance_and_a_rerun_adds_nothing(
    rg: Recollect, scope_id: str, repo: tuple[Path, dict[str, str]]
) -> None:
    path, s = repo
    res = rg.learn(scope_id, owner_id="kai", sources={"git": {"repo": str(path)}})["git"]
    assert res.fetched == 14 and not res.errors and not res.failed
    assert dict(res.skipped) == {"initial commit": 1, "typo fix": 1, "version bump": 1,
                                 "merge commit": 1, "work in progress": 1}  # fmt: skip
    assert res.learned == len(KEPT) + 2  # commits, the migration, one area summary
    found = entries(rg, scope_id)
    assert len(found) == res.learned
    for key in KEPT:
        e = found[f"git:{s[key]}"]
        assert e["scope_id"] == scope_id and e["owner_id"] == "kai"
        assert json.loads(e["metadata"])["learned_from"] == "git"
        assert e["source"] == "system" and e["embedding_model"]
    users = found[f"git:{s['users']}"]
    assert "The list | filter syntax follows the search API." in users["content"]
    summary = next(e for k, e in found.items() if k.startswith("git:area:api:"))
    assert summary["source_type"] == "consolidated"
    # the revert retired the commit it reverts
    assert found[f"git:{s['pagination']}"].get("retired_at") is not None
    assert res.position == datetime.fromisoformat(
        rg.query(
            "MATCH (c:LearnerCursor {scope_id: $s}) RETURN toString(c.position) AS p",
            {"s": scope_id},
        )[0]["p"]
    )

    before = graph(rg, scope_id)
    again = rg.learn(scope_id, owner_id="kai", sources=[GitLearner(path)])["git"]
    assert again.learned == 0 and again.fetched == 0
    forced = rg.learn(scope_id, owner_id="kai", sources=[GitLearner(path)], since="2000-01-01")
    assert forced["git"].learned == 0 and forced["git"].skipped["already learned"] == len(KEPT)
    after = graph(rg, scope_id)
    assert after["entries"] == before["entries"] and after["edges"] == before["edges"]
    assert after["ops"] == before["ops"]


class Boom(Exception):
    pass


def test_a_run_killed_after_a_batch_resumes_to_the_same_graph(
    rg: Recollect, repo: tuple[Path, dict[str, str]]
) -> None:
    path, _ = repo
    whole, killed = f"whole-{os.getpid()}-{id(path)}", f"killed-{os.getpid()}-{id(path)}"
    rg.learners.learn(whole, "kai", [GitLearner(path)], batch_size=3)

    def kill_after(batches: int) -> Any:
        def progress(source: str, done: int, total: int) -> None:
            if done >= 3 * batches:
                raise Boom(f"killed after {done} of {total}")

        return progress

    with pytest.raises(Boom):
        rg.learners.learn(killed, "kai", [GitLearner(path)], batch_size=3, progress=kill_after(1))
    cur = rg.learners.cursors(killed)[0]
    assert cur["run_open"] is True and len(entries(rg, killed)) == 3
    with pytest.raises(Boom):  # killed again, after the batch with the migration
        rg.learners.learn(killed, "kai", [GitLearner(path)], batch_size=3, progress=kill_after(2))
    res = rg.learners.learn(killed, "kai", [GitLearner(path)], batch_size=3)["git"]
    assert res.resumed and res.learned > 0
    assert graph(rg, killed) == graph(rg, whole)
    assert rg.learners.cursors(killed)[0]["run_open"] is False


def test_a_migration_supersedes_what_mentions_the_old_tool(
    rg: Recollect, scope_id: str, repo: tuple[Path, dict[str, str]]
) -> None:
    path, s = repo
    note = rg.remember("The frontend is bundled with webpack; run npm run build.",
                       scope_id=scope_id, owner_id="ana")  # fmt: skip
    res = rg.learn(scope_id, owner_id="kai", sources=[GitLearner(path)])["git"]
    [mig] = res.patterns
    assert (mig["type"], mig["old"], mig["new"], mig["superseded"]) == (
        "migration", "webpack", "vite", 3,
    )  # fmt: skip
    found = entries(rg, scope_id)
    deprecation = found["git:migration:webpack->vite"]
    assert deprecation["content"].startswith("DEPRECATED: webpack has been replaced by vite.")
    assert deprecation["pinned"] is True and deprecation["entry_type"] == "decision"
    retired = {k for k, e in found.items() if e.get("retired_at") is not None}
    assert retired == {note.content, f"git:{s['webpack']}", f"git:{s['docs']}",
                       f"git:{s['pagination']}"}  # fmt: skip
    assert found[f"git:{s['migrate']}"].get("retired_at") is None  # the migration itself stays
    sup = rg.query(
        "MATCH (n:Entry {id: $id})-[:SUPERSEDES]->(o:Entry) RETURN o.id AS id",
        {"id": deprecation["id"]},
    )
    assert note.id in {r["id"] for r in sup}
    # undoable like any invalidation
    op = next(o for o in rg.operations(scope_id) if o.kind == "invalidate")
    rg.undo(op.id, scope_id=scope_id)
    assert rg.get(note.id, scope_id=scope_id).retired_at is None


def test_dry_run_writes_nothing(
    rg: Recollect, scope_id: str, repo: tuple[Path, dict[str, str]]
) -> None:
    path, s = repo
    res = rg.learn(scope_id, owner_id="kai", sources=[GitLearner(path)], dry_run=True)["git"]
    assert res.dry_run and res.would_learn == len(KEPT) + 2 and res.learned == 0
    assert {p["source_id"] for p in res.preview} >= {f"git:{s[k]}" for k in KEPT}
    assert entries(rg, scope_id) == {} and rg.learners.cursors(scope_id) == []
    assert res.to_dict()["preview"][0]["content"]


def test_shell_history_secrets_never_reach_the_graph(
    rg: Recollect, scope_id: str, tmp_path: Path
) -> None:
    z, b = tmp_path / ".zsh_history", tmp_path / ".bash_history"
    z.write_bytes(zsh_history())
    b.write_text(bash_history())
    res = rg.learn(scope_id, owner_id="kai", sources=[ShellLearner([z, b])])["shell"]
    assert res.learned >= 8 and res.skipped["trivial command"] >= 2
    rows = rg.query("MATCH (n) WHERE n.scope_id = $s RETURN properties(n) AS p", {"s": scope_id})
    blob = json.dumps([{k: v for k, v in r["p"].items() if k != "embedding"} for r in rows])
    assert "[REDACTED:" in blob
    for secret in SECRETS:
        assert secret not in blob
    again = rg.learn(scope_id, owner_id="kai", sources=[ShellLearner([z, b])])["shell"]
    assert again.learned == 0


def test_shell_credentials_in_arguments_netrc_and_aws_configure_are_not_stored(
    rg: Recollect, scope_id: str, tmp_path: Path
) -> None:
    history = tmp_path / ".bash_history"
    history.write_text("".join(f"{cmd}\n" for cmd, _s, _k in SHELL_REGRESSIONS))
    res = rg.learn(scope_id, owner_id="kai", sources=[ShellLearner([history])])["shell"]
    assert res.learned == len(SHELL_REGRESSIONS)
    stored = stored_text(rg, scope_id)
    for _cmd, secret, kind in SHELL_REGRESSIONS:
        assert secret not in stored
        assert marker(kind) in stored
    contents = [e["content"] for e in entries(rg, scope_id).values()]
    assert any(f"redis-cli -h cache.internal -a {marker('password')} ping" in c for c in contents)


def test_ci_failure_then_resolution_across_overwritten_reports(
    rg: Recollect, scope_id: str, tmp_path: Path
) -> None:
    report = tmp_path / "junit.xml"
    report.write_text(
        pytest_report("2024-03-01T10:00:00", {"test_total": "fail", "test_ok": "pass"})
    )
    first = rg.learn(scope_id, owner_id="ci", sources=[CiLearner([report])])["ci"]
    assert first.learned == 1
    report.write_text(
        pytest_report("2024-03-02T10:00:00", {"test_total": "pass", "test_ok": "pass"})
    )
    second = rg.learn(scope_id, owner_id="ci", sources=[CiLearner([report])])["ci"]
    assert second.learned == 1 and second.superseded == 1
    found = entries(rg, scope_id)
    fail = next(e for e in found.values() if e["entry_type"] == "problem")
    fixed = next(e for e in found.values() if e["entry_type"] == "outcome")
    assert fail.get("retired_at") is not None and fixed.get("retired_at") is None
    assert fail["source_id"].startswith("ci:tests.test_cart::test_total@")
    link = rg.query(
        "MATCH (:Entry {id: $a})-[r:SUPERSEDES]->(:Entry {id: $b}) RETURN count(r) AS n",
        {"a": fixed["id"], "b": fail["id"]},
    )
    assert link[0]["n"] == 1


def test_a_changed_note_supersedes_its_old_section_only(
    rg: Recollect, scope_id: str, tmp_path: Path
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    note = folder / "deploy.md"
    note.write_text(DEPLOY)
    first = rg.learn(scope_id, owner_id="kai", sources=[NotesLearner(folder)])["notes"]
    assert first.learned == 3  # intro, rollback, database migrations (the empty one skipped)
    note.write_text(DEPLOY.replace("check the dashboards", "check the error rate"))
    stamp = datetime(2030, 1, 1, tzinfo=UTC).timestamp()
    os.utime(note, (stamp, stamp))
    second = rg.learn(scope_id, owner_id="kai", sources=[NotesLearner(folder)])["notes"]
    assert second.learned == 1 and second.superseded == 1
    assert second.skipped["already learned"] == 2
    current = [e for e in entries(rg, scope_id).values() if e.get("retired_at") is None]
    assert len(current) == 3
    assert any("check the error rate" in e["content"] for e in current)


def test_cli_learn_git_json_and_errors(
    run: Any, scope_id: str, repo: tuple[Path, dict[str, str]]
) -> None:
    path, _ = repo
    out = data(run("learn", "git", "--repo", str(path), "--scope", scope_id, "--json"))
    assert out["git"]["learned"] == len(KEPT) + 2 and out["git"]["skipped_total"] == 5
    assert out["git"]["patterns"][0]["new"] == "vite"
    again = data(run("learn", "git", "--path", str(path), "--scope", scope_id, "--json"))
    assert again["git"]["learned"] == 0
    status = data(run("learn", "status", "--scope", scope_id, "--json"))
    assert status[0]["source"] == "git" and status[0]["run_open"] is False
    text = run("learn", "git", "--repo", str(path), "--scope", scope_id, "--dry-run").stdout
    assert text.startswith("git: fetched 0, would learn 0")
    r = run("learn", "git", "--repo", str(path / "nope"), "--scope", scope_id, ok=False)
    assert_one_line_error(r, "is not a directory")
    r = run("learn", "git", "--repo", str(path), ok=False)
    assert_one_line_error(r, "--scope is required")
