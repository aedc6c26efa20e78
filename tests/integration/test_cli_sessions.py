"""The session and recall commands: learn agents, sessions ..., recall (one-shot and interactive)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from recollect_graph import Recollect
from recollect_graph.redaction import marker
from tests.helpers import assert_one_line_error, data, stored_text
from tests.unit.test_redaction import AGENT_REGRESSIONS, AWS_SECRET, GHP, write_transcript

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "agent_transcripts"
PROJECT = "-home-kai-src-logslice"  # 5 sessions, a sub-agent and a fork of it
MANIFEST = json.loads((FIXTURE / "manifest.json").read_text())
BY_KEY = {s["key"]: s for s in MANIFEST["sessions"]}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    dst = tmp_path / PROJECT
    shutil.copytree(FIXTURE / "projects" / PROJECT, dst)
    return dst


def test_learn_agents_then_sessions_and_recall(run: Any, scope_id: str, project: Path) -> None:
    out = data(run("learn", "agents", "--path", str(project), "--scope", scope_id, "--json"))
    mine = [s for s in MANIFEST["sessions"] if s["slug"] == PROJECT]
    assert out["sessions"] == len(mine) and out["forks"] == 2 and out["orphan_forks"] == []
    assert out["turns_added"] == sum(s["turns"] for s in mine)
    assert out["decisions_learned"] >= 1  # decisions become entries FROM_SESSION
    again = data(run("learn", "agents", "--path", str(project), "--scope", scope_id, "--json"))
    assert again["turns_added"] == 0 and again["unchanged"] == len(mine)
    text = run("learn", "agents", "--path", str(project), "--scope", scope_id).stdout
    assert f"{len(mine)} sessions" in text and "0 turns added" in text

    listed = data(run("sessions", "list", "--scope", scope_id, "--json"))
    assert {s["id"] for s in listed} == {s["id"] for s in mine}
    forks = data(run("sessions", "forks", "--scope", scope_id, "--json"))
    assert {f["id"] for f in forks} == {BY_KEY["a_bench"]["id"], BY_KEY["a_sigbus"]["id"]}

    sigbus = BY_KEY["a_sigbus"]
    parent = data(run("sessions", "fork-parent", sigbus["id"], "--scope", scope_id, "--json"))
    assert parent["parent_pointer"] == sigbus["root_session"]
    assert (
        parent["resume"] == f"cd {sigbus['root_cwd']} && claude --resume {sigbus['root_session']}"
    )
    plain = run("sessions", "fork-parent", sigbus["id"], "--scope", scope_id).stdout
    assert "claude --resume" in plain

    top = BY_KEY["a_bench"]["root_session"]
    shown = data(run("sessions", "show", top, "--scope", scope_id, "--json"))
    assert shown["id"] == top and BY_KEY["a_bench"]["id"] in shown["forks"]
    assert shown["keywords"] and shown["summary"].startswith("Asked:")
    learned = [
        data(run("sessions", "show", s["id"], "--scope", scope_id, "--json"))["entries"]
        for s in mine
    ]
    assert sum(len(x) for x in learned) == out["decisions_learned"]
    turns = data(run("sessions", "turns", top, "--scope", scope_id, "--json"))
    expected = next(s for s in MANIFEST["sessions"] if s["id"] == top)["turns"]
    assert len(turns) == expected and all(t["text"] for t in turns)

    r = data(run("recall", "what did the helper conclude about mmap crashing with SIGBUS when a "
                 "log gets truncated by rotation", "--scope", scope_id, "--json"))  # fmt: skip
    assert r["track"] == "salience" and r["candidates"][0]["session_id"] == sigbus["id"]
    assert r["candidates"][0]["resumption_hint"] == parent["resume"]
    assert "past state" in r["prose"]


def test_recall_interactive_recognize_and_probe(run: Any, scope_id: str, project: Path) -> None:
    run("learn", "agents", "--path", str(project), "--scope", scope_id)
    r = run("recall", "the benchmark sub-agent that made a timing table", "--scope", scope_id,
            "--interactive", input="r\n")  # fmt: skip
    # several candidates: walked one by one until recognised; or one obvious match: its prose
    if "Candidate 1 of" in r.stdout:
        assert "Recognized " in r.stdout
    else:
        assert "(high confidence)" in r.stdout and "/home/kai/src/logslice" in r.stdout
    # Nothing matches: a probe with numbered choices, then a second attempt, then NullMatch.
    r = run("recall", "gluon plasma lattice chromodynamics", "--scope", scope_id,
            "--interactive", input="hadron collider\n")  # fmt: skip
    assert "Nothing matched yet." in r.stdout and "temporal:" in r.stdout
    assert "NullMatch" in r.stdout


def test_handoff_and_add_turns_from_a_file(run: Any, scope_id: str, tmp_path: Path) -> None:
    f = tmp_path / "turns.jsonl"
    f.write_text(
        '{"id": "1", "speaker": "Ana", "text": "Should the queue live in Postgres?"}\n'
        '{"id": "2", "speaker": "Kai", "text": "Yes, SKIP LOCKED is enough for our volume."}\n'
    )
    out = data(run("sessions", "add", "chat-1", str(f), "--scope", scope_id, "--json"))
    assert (out["added"], out["existing"]) == (2, 0)
    assert (
        data(run("sessions", "add", "chat-1", str(f), "--scope", scope_id, "--json"))["added"] == 0
    )
    h = data(run("sessions", "handoff", "chat-1", "--scope", scope_id, "--what", "Queue chosen",
                 "--next", "Load test", "--artifact", "docs/adr/007.md", "--json"))  # fmt: skip
    assert h["next"] == "Load test"
    shown = run("sessions", "handoff", "chat-1", "--scope", scope_id).stdout
    assert "Queue chosen" in shown and "docs/adr/007.md" in shown


def test_learn_agents_stores_no_secret(
    run: Any, rg: Recollect, scope_id: str, tmp_path: Path
) -> None:
    project = tmp_path / "-home-kai-src-app"
    project.mkdir()
    sid = "7d3b9f1e-2c4a-4e8b-9f6d-1a2b3c4d5e6f"
    write_transcript(
        project / f"{sid}.jsonl",
        [text for text, _s, _k in AGENT_REGRESSIONS],
        command=f"AWS_SECRET_ACCESS_KEY={AWS_SECRET} terraform apply",
        summary=f"Rotate {GHP}",
    )
    out = data(run("learn", "agents", "--path", str(project), "--scope", scope_id, "--json"))
    assert out["turns_added"] == len(AGENT_REGRESSIONS)
    stored = stored_text(rg, scope_id)
    for _text, secret, kind in AGENT_REGRESSIONS:
        assert secret not in stored
        assert marker(kind) in stored
    assert AWS_SECRET not in stored and GHP not in stored  # the artifact and the title
    turns = data(run("sessions", "turns", sid, "--scope", scope_id, "--json"))
    assert turns[0]["text"] == (
        f"My AWS key id is {marker('aws_access_key_id')}, can you check the bucket policy?"
    )
    shown = data(run("sessions", "show", sid, "--scope", scope_id, "--json"))
    assert shown["title"] == f"Rotate {marker('github_token')}"


def test_sessions_add_stores_a_token_redacted(
    run: Any, rg: Recollect, scope_id: str, tmp_path: Path
) -> None:
    f = tmp_path / "turns.jsonl"
    text = f"Deploy with GITHUB_TOKEN={GHP} tonight, then tag the release."
    f.write_text(json.dumps({"id": "1", "speaker": "Kai", "text": text}) + "\n")
    run("sessions", "add", "chat-2", str(f), "--scope", scope_id)
    turns = data(run("sessions", "turns", "chat-2", "--scope", scope_id, "--json"))
    assert turns[0]["text"] == text.replace(GHP, marker("github_token"))
    assert GHP not in stored_text(rg, scope_id)
    rg.sessions.add_turns(  # the library can opt out
        "chat-3", [{"id": "1", "speaker": "Kai", "text": text}],
        scope_id=scope_id, owner_id="kai", redact=False,
    )  # fmt: skip
    assert rg.sessions.turns("chat-3", scope_id=scope_id)[0]["text"] == text


def test_errors_are_one_line(run: Any, scope_id: str, tmp_path: Path) -> None:
    assert_one_line_error(run("sessions", "list", ok=False), "--scope is required")
    assert_one_line_error(
        run("sessions", "show", "nope", "--scope", scope_id, ok=False), "no session 'nope'"
    )
    assert_one_line_error(
        run("learn", "agents", "--path", str(tmp_path / "missing"), "--scope", scope_id, ok=False),
        "does not exist",
    )
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "1", "speaker": "Ana", "text": ""}\n')
    assert_one_line_error(
        run("sessions", "add", "c", str(bad), "--scope", scope_id, ok=False), "turn 0: text"
    )
    assert_one_line_error(run("recall", "   ", "--scope", scope_id, ok=False), "text must be")
