"""The scope on every id call (issue 19 item 3): regressions through the API and the CLI.

Before: with no ``--scope`` (and ``RECOLLECT_SCOPE`` unset) ``get ID`` printed and ``forget ID``
hard-deleted another scope's entry; ``supersede_entry`` took no scope at all.
"""

from __future__ import annotations

from typing import Any

import pytest

from recollect_graph import Recollect
from recollect_graph.errors import EntryNotFound, InvalidInput, NodeNotFound, OperationNotFound
from tests.helpers import assert_one_line_error, data, stored_text


@pytest.fixture
def theirs(rg: Recollect, scope_id: str) -> tuple[str, list[str], str]:
    """Another scope with two entries and a logged forget (its id, entry ids, operation id)."""
    other = scope_id + "-theirs"
    a, b = rg.remember_many(
        [{"content": "Their payroll key is PAY-4411"}, {"content": "Their release is Friday"}],
        scope_id=other,
        owner_id="ana",
    )
    gone = rg.remember("Their temporary note", scope_id=other, owner_id="ana")
    rg.forget(gone.id, scope_id=other)
    return other, [a.id, b.id], rg.operations(other, limit=1)[0].id


def test_api_id_calls_without_a_scope_refuse_and_change_nothing(
    rg: Recollect, theirs: tuple[str, list[str], str]
) -> None:
    other, (a, b), op = theirs
    before = stored_text(rg, other)
    calls = [
        lambda: rg.get(a),
        lambda: rg.get_many([a, b]),
        lambda: rg.forget(a),
        lambda: rg.connect(a, b, "supports"),
        lambda: rg.outcome([a], "bad"),
        lambda: rg.undo(op),
        lambda: rg.supersede_entry(a, b),
        lambda: rg.show(a),
    ]
    for call in calls:
        with pytest.raises(InvalidInput, match="scope_id is required"):
            call()
    assert stored_text(rg, other) == before


def test_api_another_scopes_id_is_not_found(
    rg: Recollect, scope_id: str, theirs: tuple[str, list[str], str]
) -> None:
    other, (a, b), op = theirs
    mine = rg.remember("My own note", scope_id=scope_id, owner_id="kai")
    before = stored_text(rg, other)
    with pytest.raises(EntryNotFound):
        rg.get(a, scope_id=scope_id)
    assert rg.get_many([a, mine.id], scope_id=scope_id) == [
        rg.get(mine.id, scope_id=scope_id, touch=False)
    ]
    with pytest.raises(EntryNotFound):
        rg.forget(a, scope_id=scope_id)
    with pytest.raises(EntryNotFound):
        rg.connect(mine.id, a, "supports", scope_id=scope_id)
    assert rg.outcome([a, b], "good", scope_id=scope_id) == []
    with pytest.raises(OperationNotFound):
        rg.undo(op, scope_id=scope_id)
    with pytest.raises(EntryNotFound):
        rg.supersede_entry(a, mine.id, scope_id=scope_id)
    with pytest.raises(NodeNotFound):
        rg.show(a, scope_id=scope_id)
    assert stored_text(rg, other) == before
    # within its own scope the same calls work
    assert rg.get(a, scope_id=other, touch=False).content == "Their payroll key is PAY-4411"


def test_cli_get_and_forget_without_a_scope_refuse(
    run: Any, rg: Recollect, theirs: tuple[str, list[str], str]
) -> None:
    other, (a, b), op = theirs
    before = stored_text(rg, other)
    for args in (
        ("get", a),
        ("forget", a),
        ("connect", a, b, "supports"),
        ("outcome", "bad", a),
        ("undo", op),
        ("supersede", "--old", a, "--new", b),
        ("show", a),
    ):
        r = run(*args, ok=False)
        assert_one_line_error(r, "--scope is required (or set RECOLLECT_SCOPE)")
        assert "PAY-4411" not in r.output
        r = run(*args, "--json", ok=False)
        assert r.exit_code == 1 and data(r)["error"] == "invalid_input"
    assert stored_text(rg, other) == before


def test_cli_another_scopes_id_is_not_found_and_never_printed(
    run: Any, rg: Recollect, scope_id: str, theirs: tuple[str, list[str], str]
) -> None:
    other, (a, _b), op = theirs
    before = stored_text(rg, other)
    r = run("get", a, "--scope", scope_id, ok=False)
    assert r.exit_code == 1 and "PAY-4411" not in r.output
    assert_one_line_error(run("forget", a, "--scope", scope_id, ok=False), "no entry with id")
    r = run("undo", op, "--scope", scope_id, "--json", ok=False)
    assert r.exit_code == 1 and data(r)["error"] == "not_found"
    assert stored_text(rg, other) == before
    assert "PAY-4411" in run("get", a, "--scope", other).stdout
