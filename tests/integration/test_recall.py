"""Agent transcripts in, vague recall out: the Anamnesis protocol on the fixture projects.

The fixture (``tests/data/agent_transcripts``, see its README) holds 34 Claude Code sessions in 6
projects, 7 forks (sub-agent transcripts and hypomnesis captures, a fork of a fork, a fork whose
parent transcript is gone), malformed lines and a growing transcript. It is ingested once per
test module into its own scope.
"""

from __future__ import annotations

import json
import shutil
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from recollect_graph import Recollect
from recollect_graph.services.sessions import transcripts

DATA = Path(__file__).resolve().parents[1] / "data"
FIXTURE = DATA / "agent_transcripts"
MANIFEST = json.loads((FIXTURE / "manifest.json").read_text())
QUESTIONS = [json.loads(x) for x in (DATA / "recall_questions.jsonl").read_text().splitlines()]
NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
SESSIONS = {s["id"]: s for s in MANIFEST["sessions"]}
BY_KEY = {s["key"]: s for s in MANIFEST["sessions"]}


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the fixture the tests may grow."""
    dst = tmp_path_factory.mktemp("claude") / "agent_transcripts"
    shutil.copytree(FIXTURE, dst)
    return dst


@pytest.fixture(scope="module")
def ingested(rg: Recollect, tree: Path) -> Iterator[tuple[str, transcripts.IngestReport]]:
    scope = f"recall-{uuid.uuid4().hex[:8]}"
    report = transcripts.ingest(rg.sessions, tree, scope_id=scope, owner_id="kai")
    yield scope, report


def recall(rg: Recollect, scope: str, text: str, **kw: Any) -> Any:
    return rg.recall(text, scope_id=scope, now=NOW, **kw)


def test_ingest_matches_the_manifest(rg: Recollect, ingested: tuple[str, Any]) -> None:
    scope, report = ingested
    assert report.sessions == len(MANIFEST["sessions"]) == 41
    assert report.forks == 7
    assert report.orphan_forks == [BY_KEY["a_tag_audit"]["id"]]
    expected_bad = sum(s["malformed_lines"] for s in MANIFEST["sessions"])
    expected_bad += sum(c.get("malformed_lines", 0) for c in MANIFEST["captures"])
    assert report.malformed_lines == expected_bad > 0
    for s in MANIFEST["sessions"]:
        got = rg.sessions.get(s["id"], scope_id=scope)
        assert got["turn_count"] == s["turns"], s["key"]
        if s["kind"] == "top":
            assert got["cwd"] == s["cwd"]
            assert got["origin"] == s["entrypoint"]
            assert got["fork_marker"] is False
        else:
            assert got["fork_marker"] is True and got["parent_pointer"] == s["parent"]


def test_reingest_is_idempotent_and_a_grown_transcript_adds_only_new_turns(
    rg: Recollect, ingested: tuple[str, Any], tree: Path
) -> None:
    scope, _ = ingested
    again = transcripts.ingest(rg.sessions, tree, scope_id=scope, owner_id="kai")
    assert (again.ingested, again.turns_added) == (0, 0)
    assert again.unchanged == again.sessions
    g = MANIFEST["growing"]
    path = tree / g["path"]
    with path.open("a", encoding="utf-8") as f:
        f.write((tree / g["part2"]).read_text(encoding="utf-8"))
    grown = transcripts.ingest(rg.sessions, tree, scope_id=scope, owner_id="kai")
    assert (grown.ingested, grown.turns_added) == (1, g["turns_after"] - g["turns_before"])
    s = rg.sessions.get(g["id"], scope_id=scope)
    assert s["turn_count"] == g["turns_after"]
    assert s["last_turn_at"] == datetime.fromisoformat(g["last_turn_at_after"])
    n = rg.query(
        "MATCH (s:Session {id: $id})-[:HAS_TURN]->(t) WHERE s.scope_id = $s "
        "RETURN count(t) AS n, count(DISTINCT t.source_id) AS d",
        {"id": g["id"], "s": scope},
    )
    assert n == [{"n": g["turns_after"], "d": g["turns_after"]}]


def test_forks_resolve_to_their_resumable_ancestor(
    rg: Recollect, ingested: tuple[str, Any]
) -> None:
    scope, _ = ingested
    for key in ("a_nplus1", "a_money_floats", "a_bench", "a_sigbus", "a_shortcodes"):
        f = BY_KEY[key]
        p = rg.fork_parent(f["id"], scope_id=scope)
        assert (p.parent_pointer, p.parent_cwd) == (f["root_session"], f["root_cwd"]), key
        assert p.resume == f"cd {f['root_cwd']} && claude --resume {f['root_session']}"
    sigbus = rg.fork_parent(BY_KEY["a_sigbus"]["id"], scope_id=scope)
    assert sigbus.chain == [BY_KEY["a_bench"]["id"], BY_KEY["a_bench"]["root_session"]]
    orphan = rg.fork_parent(BY_KEY["a_tag_audit"]["id"], scope_id=scope)
    assert orphan.resumable is False and orphan.resume is None
    assert orphan.missing_parent == BY_KEY["a_tag_audit"]["parent"]


def test_each_input_type_dispatches_to_its_track(rg: Recollect, ingested: tuple[str, Any]) -> None:
    scope, _ = ingested
    ident = recall(rg, scope, "what was the session that touched PR #212")
    assert (ident.input_type, ident.track) == ("StructuredIdentifier", "entropy")
    natural = recall(rg, scope, "where did we decide against using Kafka?")
    assert (natural.input_type, natural.track) == ("NaturalRecall", "salience")
    q = next(x for x in QUESTIONS if x["kind"] == "mixed")
    mixed = recall(rg, scope, q["question"])
    assert (mixed.input_type, mixed.track) == ("Mixed", "hybrid")
    assert mixed.candidates[0].session_id == q["target"]


def test_a_rare_identifier_beats_a_common_one(rg: Recollect, ingested: tuple[str, Any]) -> None:
    scope, _ = ingested
    target = next(q for q in QUESTIONS if q["id"] == "q38")["target"]
    r = recall(rg, scope, "the session with README.md and PR #212")
    assert r.candidates[0].session_id == target
    assert r.candidates[0].signals["entropy"] == 1.0  # PR #212: one session cites it
    # README.md (in several projects) is cited by four sessions: alone it anchors each of them
    # with precision 1/4 and none with confidence; next to PR #212 it does not outrank it.
    common = recall(rg, scope, "which session touched README.md")
    assert len(common.candidates) >= 2
    assert all(c.signals["entropy"] < 0.3 for c in common.candidates)
    assert all(c.confidence != "high" for c in common.candidates)
    assert all(c.score < r.candidates[0].score for c in common.candidates)


def test_an_incompatible_literal_does_not_anchor(rg: Recollect, ingested: tuple[str, Any]) -> None:
    scope, _ = ingested
    r = recall(rg, scope, "the issue #212")  # #212 is a pull request in the store
    assert r.trace["unanchored"] and "cannot anchor" in r.trace["unanchored"][0]
    assert all("entropy" not in c.signals for c in r.candidates)


def test_missing_parent_gives_a_non_resumable_candidate(
    rg: Recollect, ingested: tuple[str, Any]
) -> None:
    scope, _ = ingested
    orphan = BY_KEY["a_tag_audit"]
    q = next(x for x in QUESTIONS if x["target"] == orphan["id"])
    r = recall(rg, scope, q["question"])
    c = next(c for c in r.candidates if c.session_id == orphan["id"])
    assert c.fork_marker and c.resumption_hint is None and c.parent_cwd is None
    assert c.missing_parent == orphan["parent"]
    assert c.fingerprint  # the capture is what remains: it is surfaced
    if r.candidates[0] is c:
        assert "Not resumable" in r.prose


def test_zero_candidates_probe_first_then_null_match(
    rg: Recollect, ingested: tuple[str, Any]
) -> None:
    scope, _ = ingested
    text = "quantum chromodynamics lattice simulation of gluon plasma"
    first = recall(rg, scope, text)
    assert first.candidates == [] and first.null_match is False
    assert {p.dimension for p in first.probes} == {"temporal", "associative", "contextual"}
    assert all(p.options for p in first.probes)
    assert any("/home/kai/src/webshop" in o for o in first.probes[2].options)
    second = recall(rg, scope, text, attempt=2, hints=["hadron collider data"])
    assert second.null_match is True and second.probes == []
    assert "NullMatch" in second.prose


def test_recall_quality_on_the_question_set(rg: Recollect, ingested: tuple[str, Any]) -> None:
    """>= 80% top-1 and >= 95% top-3; unanswerable questions get no high-confidence match."""
    scope, _ = ingested
    ranks = []
    for q in QUESTIONS:
        r = recall(rg, scope, q["question"])
        ids = [c.session_id for c in r.candidates]
        if q["target"] is None:
            assert not (r.candidates and r.candidates[0].confidence == "high"), q["id"]
            continue
        ranks.append(ids.index(q["target"]) + 1 if q["target"] in ids else 99)
    assert len(ranks) >= 40
    top1 = sum(r == 1 for r in ranks) / len(ranks)
    top3 = sum(r <= 3 for r in ranks) / len(ranks)
    print(f"recall quality: top1 {top1:.3f} top3 {top3:.3f} over {len(ranks)} questions")
    assert top1 >= 0.80 and top3 >= 0.95


def test_single_obvious_and_the_clue_prose(rg: Recollect, ingested: tuple[str, Any]) -> None:
    scope, _ = ingested
    target = next(q for q in QUESTIONS if q["id"] == "q38")["target"]
    r = recall(rg, scope, "PR #212")
    assert r.single_obvious and r.candidates[0].session_id == target
    s = SESSIONS[target]
    assert f"cd {s['cwd']} && claude --resume {target}" in r.prose
    assert "past state" in r.prose and "When/where:" in r.prose
