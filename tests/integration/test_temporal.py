"""Bi-temporal search and recent (issue 19 item 3): valid time beside record time.

``as_of`` is record time (what was known at a moment), ``valid_at`` valid time (what was true
at a moment). Before: an entry valid from 2030 was returned by today's search, ``recent`` took no
time argument and ``remember`` refused ``created_at``.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from recollect_graph import Recollect
from recollect_graph.errors import InvalidInput
from tests.helpers import assert_one_line_error, data, stored_text


def _ids(hits: list[Any]) -> list[str]:
    return [h.entry.id for h in hits]


def test_an_entry_not_yet_valid_is_not_current(rg: Recollect, scope_id: str) -> None:
    future = rg.remember(
        "The payments API moves to the eu-west region",
        scope_id=scope_id,
        owner_id="kai",
        valid_from="2030-01-01T00:00:00Z",
    )
    now = rg.remember("The payments API runs in us-east", scope_id=scope_id, owner_id="kai")
    q = "which region does the payments API run in"
    assert _ids(rg.search(q, scope_id=scope_id)) == [now.id]
    assert [e.id for e in rg.recent(scope_id)] == [now.id]
    then = rg.search(q, scope_id=scope_id, valid_at="2030-06-01T00:00:00Z")
    assert future.id in _ids(then)
    assert future.id in [e.id for e in rg.recent(scope_id, valid_at="2030-06-01")]


def test_valid_at_is_what_was_true_as_of_is_what_was_known(rg: Recollect, scope_id: str) -> None:
    old = rg.remember(
        "The frontend build uses webpack",
        scope_id=scope_id,
        owner_id="kai",
        created_at="2025-01-10T09:00:00Z",
        valid_from="2024-06-01T00:00:00Z",
    )
    assert rg.get(old.id, scope_id=scope_id).created_at == datetime(2025, 1, 10, 9, tzinfo=UTC)
    out = rg.supersede(scope_id, "frontend build", "uses", "vite")
    assert out.superseded == [old.id]
    q = "what does the frontend build use"
    current = _ids(rg.search(q, scope_id=scope_id))
    assert old.id not in current and out.new_entry_id in current
    # valid time: in 2024 webpack was what was true (retired since, but true then); vite was
    # not yet recorded, so nothing says it was true then
    in_2024 = _ids(rg.search(q, scope_id=scope_id, valid_at="2024-12-01T00:00:00Z"))
    assert in_2024 == [old.id]
    # record time: in March 2025 we knew of webpack only, and believed it
    known = _ids(rg.search(q, scope_id=scope_id, as_of="2025-03-01T00:00:00Z"))
    assert known == [old.id]
    # before it was recorded nothing was known, even though it was valid from 2024-06
    assert rg.search(q, scope_id=scope_id, as_of="2025-01-01T00:00:00Z") == []
    assert [e.id for e in rg.recent(scope_id, as_of="2025-03-01T00:00:00Z")] == [old.id]
    assert [e.id for e in rg.recent(scope_id, valid_at="2024-12-01")] == [old.id]


def test_remember_refuses_a_future_created_at_and_writes_nothing(
    rg: Recollect, scope_id: str
) -> None:
    ahead = (datetime.now(UTC) + timedelta(days=2)).isoformat()
    with pytest.raises(InvalidInput, match="created_at is in the future"):
        rg.remember("Tomorrow's note", scope_id=scope_id, owner_id="kai", created_at=ahead)
    with pytest.raises(InvalidInput, match="created_at"):
        rg.remember("Bad time", scope_id=scope_id, owner_id="kai", created_at="not a time")
    assert stored_text(rg, scope_id) == "[]"


def test_historical_notes_decay_as_old(rg: Recollect, scope_id: str) -> None:
    old, new = rg.remember_many(
        [
            {"content": "Standup is at 9:00 for the data team", "created_at": "2024-01-05"},
            {"content": "Standup is at 9:30 for the platform team"},
        ],
        scope_id=scope_id,
        owner_id="kai",
    )
    hits = {h.entry.id: h for h in rg.search("standup time", scope_id=scope_id, touch=False)}
    assert hits[old.id].signals.strength < hits[new.id].signals.strength


def test_cli_search_and_recent_take_valid_at_and_as_of(run: Any, scope_id: str) -> None:
    run(
        "remember",
        "The on-call rota starts in 2031",
        "--scope",
        scope_id,
        "--json",
    )
    r = run("remember", "--file", "-", "--scope", scope_id, "--json", input=(
        '[{"content": "Mia was on call in March 2026", "valid_from": "2026-03-01T00:00:00Z",'
        ' "valid_to": "2026-04-01T00:00:00Z", "created_at": "2026-02-20T00:00:00Z"}]'
    ))  # fmt: skip
    mia = data(r)[0]["id"]
    hits = data(run("search", "who was on call", "--scope", scope_id, "--json"))
    assert mia not in [h["entry"]["id"] for h in hits]  # no longer valid
    hits = data(
        run("search", "who was on call", "--scope", scope_id, "--valid-at", "2026-03-15",
            "--json")
    )  # fmt: skip
    assert [h["entry"]["id"] for h in hits] == [mia]
    rec = data(run("recent", "--scope", scope_id, "--valid-at", "2026-03-15", "--json"))
    assert [e["id"] for e in rec] == [mia]
    rec = data(run("recent", "--scope", scope_id, "--as-of", "2026-02-01", "--json"))
    assert rec == []
    r = run("search", "x", "--scope", scope_id, "--valid-at", "someday", ok=False)
    assert_one_line_error(r, "valid_at")


def test_conflicts_at_a_time(rg: Recollect, scope_id: str) -> None:
    rg.remember(
        "The frontend build uses webpack",
        scope_id=scope_id,
        owner_id="kai",
        created_at="2025-01-10T09:00:00Z",
    )
    rg.remember("The frontend build uses vite", scope_id=scope_id, owner_id="kai")
    assert len(rg.conflicts(scope_id)) == 1
    # the contradiction was recorded today: in mid-2025 nothing was known to conflict
    assert rg.conflicts(scope_id, as_of="2025-06-01T00:00:00Z") == []
    # nor were both true in mid-2025 (the vite entry holds from its recording)
    assert rg.conflicts(scope_id, valid_at="2025-06-01T00:00:00Z") == []
    assert len(rg.conflicts(scope_id, valid_at=datetime.now(UTC))) == 1
