"""The contradiction commands (check, conflicts, supersede, invalidate) against the server."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import assert_one_line_error, data

WEBPACK = "The frontend build uses webpack."
MOVED = "We moved the build from webpack to vite"


def remember(run: Any, scope_id: str, text: str) -> str:
    entry_id: str = data(run("remember", text, "--scope", scope_id, "--json"))["id"]
    return entry_id


def get(run: Any, scope_id: str, entry_id: str) -> dict[str, Any]:
    entry: dict[str, Any] = data(run("get", entry_id, "--scope", scope_id, "--json"))[0]
    return entry


def test_check_finds_value_conflict(run: Any, scope_id: str) -> None:
    old = remember(run, scope_id, WEBPACK)
    out = data(run("contradictions", "check", MOVED, "--scope", scope_id, "--json"))
    assert out["ok"] is False and out["claims"]
    (c,) = out["conflicts"]
    assert c["type"] == "value_conflict" and c["existing"]["id"] == old
    assert 0 < c["score"] <= 1 and "webpack" in c["reason"] and "vite" in c["reason"]
    assert c["claim"]["object_key"] == "vite" and c["existing_claim"]["object_key"] == "webpack"

    text = run("contradictions", "check", "-", "--scope", scope_id, input=MOVED).stdout
    assert "value_conflict" in text and WEBPACK in text and "(1 contradiction)" in text
    # checking writes nothing
    assert data(run("conflicts", "list", "--scope", scope_id, "--json")) == []


def test_check_unrelated_and_fail_on_conflict(run: Any, scope_id: str) -> None:
    remember(run, scope_id, WEBPACK)
    unrelated = "Postgres runs on port 5433 here"
    r = run("contradictions", "check", unrelated, "--scope", scope_id)
    assert r.stdout.strip() == "no contradictions"
    out = data(run("contradictions", "check", unrelated, "--scope", scope_id, "--json"))
    assert out["ok"] is True and out["conflicts"] == []
    ok = run("contradictions", "check", unrelated, "--scope", scope_id, "--fail-on-conflict")
    assert ok.exit_code == 0

    r = run("contradictions", "check", MOVED, "--scope", scope_id, "--fail-on-conflict", ok=False)
    assert r.exit_code == 2 and "value_conflict" in r.stdout
    r = run(
        "contradictions", "check", MOVED, "--scope", scope_id, "--fail-on-conflict", "--json",
        ok=False,
    )  # fmt: skip
    assert r.exit_code == 2 and data(r)["ok"] is False


def test_conflicts_list_and_resolve(run: Any, scope_id: str) -> None:
    old = remember(run, scope_id, WEBPACK)
    new = remember(run, scope_id, MOVED)
    (c,) = data(run("conflicts", "list", "--scope", scope_id, "--json"))
    assert c["source"]["id"] == new and c["target"]["id"] == old
    assert c["type"] == "value_conflict" and c["reason"]
    text = run("conflicts", "list", "--scope", scope_id).stdout
    assert new in text and old in text and "(1 open conflict)" in text

    out = data(run("conflicts", "resolve", old, new, "--keep", new, "--scope", scope_id, "--json"))
    assert out["kept"] == new and out["loser"] == old and out["operation_id"]
    assert get(run, scope_id, old)["retired_at"] is not None
    assert get(run, scope_id, new)["retired_at"] is None
    assert data(run("conflicts", "list", "--scope", scope_id, "--json")) == []

    run("undo", out["operation_id"], "--scope", scope_id)
    assert get(run, scope_id, old)["retired_at"] is None
    assert len(data(run("conflicts", "list", "--scope", scope_id, "--json"))) == 1

    r = run("conflicts", "resolve", old, new, "--keep", "nope", "--scope", scope_id, ok=False)
    assert_one_line_error(r, "keep must be one of")


def test_supersede_by_relation_then_undo(run: Any, scope_id: str) -> None:
    old = remember(run, scope_id, WEBPACK)
    out = data(run("supersede", "frontend build", "uses", "vite", "--scope", scope_id, "--json"))
    assert out["superseded"] == [old] and out["created"] is True and out["operation_id"]
    assert get(run, scope_id, old)["retired_at"] is not None
    assert "vite" in get(run, scope_id, out["new_entry_id"])["content"]

    run("undo", out["operation_id"], "--scope", scope_id)
    assert get(run, scope_id, old)["retired_at"] is None


def test_supersede_entry_form_then_undo(run: Any, scope_id: str) -> None:
    old = remember(run, scope_id, "Deploys go out on Fridays")
    new = remember(run, scope_id, "Deploys go out on Tuesdays since March")
    r = run("supersede", "--old", old, "--new", new, "--reason", "new policy", "--scope", scope_id)
    assert r.stdout.startswith(f"{new} supersedes {old}; undo with: recollect-graph undo ")
    assert get(run, scope_id, old)["retired_at"] is not None

    op_id = r.stdout.rsplit(" ", 1)[-1].strip()
    run("undo", op_id, "--scope", scope_id)
    assert get(run, scope_id, old)["retired_at"] is None
    assert get(run, scope_id, new)["retired_at"] is None


def test_invalidate_with_replacement(run: Any, scope_id: str) -> None:
    old = remember(run, scope_id, WEBPACK)
    keep = remember(run, scope_id, "Postgres runs on port 5433 here")
    out = data(
        run(
            "invalidate", "webpack", "--reason", "moved to vite", "--replacement",
            "The frontend build uses vite.", "--scope", scope_id, "--json",
        )
    )  # fmt: skip
    assert out["invalidated"] == [old] and out["replacement_id"] and out["operation_id"]
    gone = get(run, scope_id, old)
    assert gone["retired_at"] is not None and gone["confidence"] < 0.5
    assert get(run, scope_id, keep)["retired_at"] is None
    assert get(run, scope_id, out["replacement_id"])["content"] == "The frontend build uses vite."

    run("undo", out["operation_id"], "--scope", scope_id)
    back = get(run, scope_id, old)
    assert back["retired_at"] is None and back["confidence"] == 1.0


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("supersede", "frontend", "colour", "vite"), "could not read a claim"),
        (("supersede", "frontend", "uses"), "ENTITY RELATION NEW_VALUE"),
        (("supersede", "a", "uses", "b", "--old", "x", "--new", "y"), "one form"),
        (("supersede", "--old", "x"), "--new"),
        (("supersede",), "one form"),
        (("contradictions", "check", "   "), "TEXT is empty"),
        (("invalidate", "webpack"), "--reason is required"),
        (("invalidate", "webpack", "--from-git"), "exactly one"),
        (("invalidate", "--from-git", "--reason", "x"), "apply only to PATTERN"),
        (("conflicts", "list"), "--scope is required"),
    ],
)
def test_bad_input_is_one_line(run: Any, scope_id: str, args: tuple[str, ...], needle: str) -> None:
    scoped = [*args, "--scope", scope_id] if args != ("conflicts", "list") else list(args)
    assert_one_line_error(run(*scoped, ok=False), needle)
    # the same error as JSON on stdout with --json
    r = run(*scoped, "--json", ok=False)
    assert r.exit_code == 1 and "error" in data(r)


def test_check_empty_stdin_is_one_line(run: Any, scope_id: str) -> None:
    r = run("contradictions", "check", "-", "--scope", scope_id, input="", ok=False)
    assert_one_line_error(r, "TEXT is empty")


def test_consolidate_dry_run_then_apply(run: Any, scope_id: str) -> None:
    a = remember(run, scope_id, "The public API rate limit is 100 requests per minute")
    b = remember(run, scope_id, "The public API rate limit is 100 requests per minute per user")
    dry = data(run("consolidate", "--scope", scope_id, "--json"))
    assert dry["applied"] is False and [sorted(m["members"]) for m in dry["merges"]] == [
        sorted([a, b])
    ]
    assert get(run, scope_id, a)["retired_at"] is None
    text = run("consolidate", "--scope", scope_id).stdout
    assert "1 cluster to merge" in text and "dry run" in text

    out = data(run("consolidate", "--scope", scope_id, "--apply", "--json"))
    assert out["applied"] is True and len(out["consolidated_ids"]) == 1 and out["operation_id"]
    assert get(run, scope_id, a)["retired_at"] is not None
    run("undo", out["operation_id"], "--scope", scope_id)
    assert get(run, scope_id, a)["retired_at"] is None
