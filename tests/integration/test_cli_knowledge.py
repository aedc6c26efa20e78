"""The knowledge and memory commands against the session's server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.helpers import assert_one_line_error, data


def test_remember_then_search_with_breakdown(run: Any, scope_id: str) -> None:
    r = run(
        "remember", "We chose Vite over webpack because the dev server starts instantly",
        "--scope", scope_id, "--type", "decision", "--tag", "build", "--title", "Vite",
        "--metadata", '{"ticket": "FE-12"}', "--confidence", "0.9", "--json",
    )  # fmt: skip
    entry = data(r)
    assert entry["entry_type"] == "decision" and entry["tags"] == ["build"]
    assert entry["metadata"]["ticket"] == "FE-12" and entry["created"] is True
    # the same content again is the same entry
    again = data(run("remember", entry["content"], "--scope", scope_id, "--json"))
    assert again["id"] == entry["id"] and again["created"] is False

    hits = data(run("search", "which bundler did we pick, vite or webpack", "--scope", scope_id,
                    "--json"))  # fmt: skip
    assert hits and hits[0]["entry"]["id"] == entry["id"] and hits[0]["rank"] == 1
    signals = hits[0]["signals"]
    assert set(signals) == {
        "semantic",
        "keyword",
        "graph",
        "strength",
        "quality",
        "usage",
        "context",
        "brevity",
        "session",
        "role",
        "feedback",
        "event",
        "named",
        "latest",
    }
    assert signals["brevity"] == 0 and signals["session"] == 0  # an entry, not a turn
    assert signals["event"] == 0 and signals["named"] == 0  # an entry, not a person's turn
    assert signals["role"] == 0 and signals["feedback"] == 0  # one fact asked: no feedback
    assert signals["semantic"] > 0 and hits[0]["score"] > 0

    text = run("search", "vite webpack", "--scope", scope_id, "--type", "decision").stdout
    assert "semantic" in text and "keyword" in text and entry["id"][:8] in text
    assert "(1 hit)" in text
    none = data(run("search", "vite", "--scope", scope_id, "--type", "problem", "--json"))
    assert none == []


def test_remember_from_stdin(run: Any, scope_id: str) -> None:
    r = run("remember", "-", "--scope", scope_id, input="Postgres runs on port 5433 here\n")
    assert r.stdout.startswith("remembered ")
    assert [e["content"] for e in data(run("recent", "--scope", scope_id, "--json"))] == [
        "Postgres runs on port 5433 here"
    ]


def test_remember_file_of_three_items(run: Any, scope_id: str, tmp_path: Path) -> None:
    items = [
        {"content": "The API gateway retries idempotent requests twice", "tags": ["api"]},
        {"content": "Deploys happen on Tuesdays", "entry_type": "event"},
        "Kai prefers tabs over spaces",
    ]
    f = tmp_path / "items.json"
    f.write_text(json.dumps(items))
    out = data(run("remember", "--file", str(f), "--scope", scope_id, "--tag", "team", "--json"))
    assert [e["content"] for e in out] == [items[0]["content"], items[1]["content"], items[2]]
    assert out[0]["tags"] == ["api"] and out[2]["tags"] == ["team"]  # options are defaults
    assert out[1]["entry_type"] == "event" and all(e["created"] for e in out)

    # JSON Lines on stdin, text output (the progress bar goes to stderr)
    jsonl = "\n".join(json.dumps(i) for i in items) + "\n"
    r = run("remember", "--file", "-", "--scope", scope_id, input=jsonl)
    assert "remembered 3 entries (0 new)" in r.stdout

    recent = data(run("recent", "--scope", scope_id, "--limit", "2", "--json"))
    assert [e["content"] for e in recent] == [items[2], items[1]["content"]]
    text = run("recent", "--scope", scope_id).stdout
    assert "Deploys happen on Tuesdays" in text and out[0]["id"][:8] in text


def test_remember_redact_flag(run: Any, scope_id: str) -> None:
    text = "the Stripe key is sk_live_4eC39HqLyjWDarjtT1zdp7dc for now"
    red = data(run("remember", text, "--scope", scope_id, "--redact", "--json"))
    assert red["content"] == "the Stripe key is [REDACTED:stripe_key] for now"
    plain = data(run("remember", text, "--scope", scope_id, "--json"))
    assert plain["content"] == text


def test_bad_input_is_one_line(run: Any, scope_id: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('[{"content": "x",]')
    r = run("remember", "--file", str(bad), "--scope", scope_id, ok=False)
    assert_one_line_error(r, "not valid JSON")
    bad_lines = tmp_path / "bad.jsonl"
    bad_lines.write_text('{"content": "a"}\n{oops}\n')
    assert_one_line_error(
        run("remember", "--file", str(bad_lines), "--scope", scope_id, ok=False), "line 2"
    )
    r = run("memory", "insert", "--file", str(bad), "--scope", scope_id, ok=False)
    assert_one_line_error(r, "not valid JSON")
    r = run("remember", "--file", str(tmp_path / "missing.json"), "--scope", scope_id, ok=False)
    assert_one_line_error(r, "cannot read")
    r = run("remember", "some text", ok=False)
    assert_one_line_error(r, "--scope is required (or set RECOLLECT_SCOPE)")
    r = run("remember", "x", "--scope", scope_id, "--metadata", "[1]", ok=False)
    assert_one_line_error(r, "--metadata must be a JSON object")
    r = run("remember", "x", "--scope", scope_id, "--type", "nonsense", "--json", ok=False)
    # a click.Choice: exit code 2, the list of types; with --json, the error object
    assert r.exit_code == 2 and data(r)["error"] == "usage", r.stdout
    assert "'nonsense' is not one of 'note', 'decision'" in data(r)["message"]
    assert_one_line_error(run("recent", ok=False), "--scope is required")


def test_connect_get_and_unknown_relation(run: Any, scope_id: str) -> None:
    a = data(run("remember", "Service A calls service B", "--scope", scope_id, "--json"))
    b = data(run("remember", "Service B owns the billing data", "--scope", scope_id, "--json"))
    r = run(
        "connect",
        a["id"],
        b["id"],
        "depends_on",
        "--reason",
        "billing",
        "--json",
        "--scope",
        scope_id,
    )
    edge = data(r)
    assert edge["relation"] == "depends_on" and edge["created"] is True
    assert (
        "already connected"
        in run("connect", a["id"], b["id"], "depends_on", "--scope", scope_id).stdout
    )

    r = run("connect", a["id"], b["id"], "likes", "--scope", scope_id, ok=False)
    assert r.exit_code == 2 and "'likes' is not one of 'leads_to', 'supports'" in r.stderr

    got = data(run("get", b["id"], a["id"], "--scope", scope_id, "--json"))
    assert [e["id"] for e in got] == [b["id"], a["id"]]
    text = run("get", a["id"], "--scope", scope_id).stdout
    assert a["id"] in text and "Service A calls service B" in text
    r = run("get", a["id"], "no-such-id", "--scope", scope_id, ok=False)
    assert r.exit_code == 1 and a["id"] in r.stdout and "no-such-id" in r.stderr
    assert_one_line_error(run("get", a["id"], "--scope", "other-scope", ok=False), a["id"])


def test_forget_then_undo(run: Any, scope_id: str) -> None:
    e = data(run("remember", "The staging DB password rotates monthly", "--scope", scope_id,
                 "--json"))  # fmt: skip
    out = data(run("forget", e["id"], "--scope", scope_id, "--json"))
    assert out["entry"]["id"] == e["id"] and out["operation_id"]
    assert run("get", e["id"], "--scope", scope_id, ok=False).exit_code == 1

    ops = data(run("operations", "--scope", scope_id, "--json"))
    assert [(o["id"], o["kind"], o["entry_ids"]) for o in ops] == [
        (out["operation_id"], "forget", [e["id"]])
    ]
    assert "forget" in run("operations", "--scope", scope_id).stdout

    op = data(run("undo", out["operation_id"], "--scope", scope_id, "--json"))
    assert op["undone_at"] is not None
    assert data(run("get", e["id"], "--json", "--scope", scope_id))[0]["content"] == e["content"]
    r = run("undo", out["operation_id"], "--scope", scope_id, ok=False)
    assert_one_line_error(r, "already undone")
    assert_one_line_error(
        run("forget", "no-such-id", "--scope", scope_id, ok=False), "no entry with id"
    )


def test_outcome(run: Any, scope_id: str) -> None:
    e = data(run("remember", "Use pnpm, not npm", "--scope", scope_id, "--json"))
    out = data(run("outcome", "good", e["id"], "--scope", scope_id, "--json"))
    assert out == {"updated": [e["id"]], "not_found": []}
    got = data(run("get", e["id"], "--json", "--scope", scope_id))[0]
    assert got["confidence_state"] == "verified" and got["half_life_days"] > e["half_life_days"]
    r = run("outcome", "meh", e["id"], "--scope", scope_id, ok=False)
    assert r.exit_code == 2 and "'meh' is not one of 'good', 'bad'" in r.stderr
    r = run("outcome", "bad", e["id"], "nope", "--scope", scope_id, ok=False)
    assert r.exit_code == 1 and "nope" in r.stderr


def test_memory_round_trip(run: Any, scope_id: str, tmp_path: Path) -> None:
    mems = [
        {"title": "Redis eviction policy", "content": "We use allkeys-lru for the session cache",
         "score": 8, "tags": ["cache"]},
        {"title": "Release checklist", "content": "Bump the version, tag, then publish the wheel"},
    ]  # fmt: skip
    f = tmp_path / "mems.json"
    f.write_text(json.dumps(mems))
    out = data(run("memory", "insert", "--file", str(f), "--scope", scope_id, "--json"))
    assert [m["title"] for m in out["inserted_memories"]] == [m["title"] for m in mems]
    assert out["errors"] == [] and out["duplicates"] == []
    redis_id, release_id = (m["id"] for m in out["inserted_memories"])

    # the same titles again (on stdin) are reported as duplicates, not inserted
    r = run("memory", "insert", "--scope", scope_id, input=json.dumps(mems))
    assert "0 inserted" in r.stdout and "2 duplicates" in r.stdout

    cap = data(run("memory", "capture", "Flaky CI on macOS is caused by the DNS cache",
                   "--scope", scope_id, "--json"))  # fmt: skip
    assert cap["duplicate"] is False and cap["title"]

    found = data(run("memory", "search", "session cache eviction", "--scope", scope_id, "--json"))
    first = found["results"][0]
    assert first["memory"]["id"] == redis_id and first["memory"]["score"] == 8
    assert first["relevance"]["combined_score"] > 0 and "semantic_score" in first["relevance"]
    titles = data(run("memory", "search", "--id", cap["id"], "--id", redis_id, "--format",
                      "title", "--scope", scope_id, "--json"))  # fmt: skip
    assert [t["id"] for t in titles["results"]] == [cap["id"], redis_id]
    assert "Redis eviction policy" in run("memory", "search", "redis", "--scope", scope_id).stdout

    deleted = data(run("memory", "delete", release_id, "--reason", "outdated", "--scope",
                       scope_id, "--json"))  # fmt: skip
    assert deleted["forgotten"] == [release_id] and deleted["operation_id"]
    gone = data(run("memory", "search", "--id", release_id, "--scope", scope_id, "--json"))
    assert gone["results"] == []
    restored = data(run("restore", release_id, "--scope", scope_id, "--json"))
    assert restored == {"restored": [release_id], "not_found": []}
    back = data(run("memory", "search", "--id", release_id, "--scope", scope_id, "--json"))
    assert [r["memory"]["id"] for r in back["results"]] == [release_id]

    r = run("restore", release_id, "--scope", scope_id, ok=False)
    assert r.exit_code == 1 and "not deleted" in r.stderr
    r = run("memory", "delete", redis_id, "--reason", "bored", "--scope", scope_id, ok=False)
    assert r.exit_code == 2 and "'bored' is not one of 'duplicate'" in r.stderr
    assert_one_line_error(
        run("memory", "search", "--scope", scope_id, ok=False), "query is required"
    )
