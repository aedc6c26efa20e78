"""A missing thing is one ``not_found`` error, whatever its kind, in every command's ``--json``."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import assert_one_line_error, data

MISSING = [
    (["sessions", "show", "nope"], "no session 'nope' in scope"),
    (["sessions", "handoff", "nope", "--what", "x"], "no session 'nope' in scope"),
    (["docs", "show", "nope"], "no document 'nope' in scope"),
    (["docs", "forget", "nope", "--yes"], "no document 'nope' in scope"),
    (["entities", "show", "nope"], "no entity 'nope' in scope"),
    (["entities", "unmerge", "nope"], "no entity merge 'nope' in scope"),
    (["topics", "show", "nope"], "no topic 'nope' in scope"),
    (["get", "nope"], "no entry with id 'nope'"),  # text: what was found, then the missing ids
    (["forget", "nope"], "no entry with id 'nope'"),
    (["show", "nope"], "no node with id 'nope' in scope"),
    (["undo", "nope"], "no operation with id 'nope'"),
]


@pytest.mark.parametrize(("args", "message"), MISSING, ids=lambda a: " ".join(a[:2]))
def test_a_missing_thing_is_not_found(
    run: Any, scope_id: str, args: list[str], message: str
) -> None:
    r = run(*args, "--scope", scope_id, "--json", ok=False)
    assert r.exit_code == 1, (r.stdout, r.stderr)
    out = data(r)
    assert out["error"] == "not_found" and out["message"].startswith(message), out
    assert set(out) == {"error", "message"}
    text = message if args[0] != "get" else "not found: nope"
    assert_one_line_error(run(*args, "--scope", scope_id, ok=False), text)
