"""Recall in time: ``valid_at`` (what had happened by then) and ``as_of`` (what was recorded).

Two sessions about the same flaky CI cache, one in January and one in June: recalling it
"as it stood in March" finds only the January one; a session recorded after a moment is not
found ``as_of`` that moment.
"""

from __future__ import annotations

import json
import time
import uuid
from datetime import UTC, datetime

from click.testing import CliRunner

from recollect_graph import Recollect
from recollect_graph.cli.main import cli
from recollect_graph.settings import Settings


def _session(rg: Recollect, scope: str, sid: str, month: int, words: str) -> None:
    turns = [
        {
            "id": f"{sid}-1",
            "role": "user",
            "speaker": "kai",
            "text": f"The CI cache keeps failing on the {words} job again, restore it",
            "at": datetime(2026, month, 3, 9, 0, tzinfo=UTC).isoformat(),
        },
        {
            "id": f"{sid}-2",
            "role": "assistant",
            "speaker": "agent",
            "text": f"I pinned the cache key of the {words} job to the lockfile hash.",
            "at": datetime(2026, month, 3, 9, 5, tzinfo=UTC).isoformat(),
        },
    ]
    rg.sessions.add_turns(sid, turns, scope_id=scope, owner_id="kai", title=f"{words} CI cache")


def _ids(result: object) -> list[str]:
    return [c.session_id for c in result.candidates]  # type: ignore[attr-defined]


def test_valid_at_recalls_only_what_had_happened_by_then(rg: Recollect) -> None:
    scope = f"rt-{uuid.uuid4().hex[:8]}"
    _session(rg, scope, "s-jan", 1, "frontend build")
    _session(rg, scope, "s-jun", 6, "frontend build")
    text = "the session where the frontend build CI cache kept failing"
    now = rg.recall(text, scope_id=scope, touch=False)
    assert set(_ids(now)) == {"s-jan", "s-jun"}
    march = rg.recall(text, scope_id=scope, touch=False, valid_at="2026-03-01T00:00:00+00:00")
    assert _ids(march) == ["s-jan"]
    before_all = rg.recall(
        text, scope_id=scope, touch=False, valid_at="2025-12-01T00:00:00+00:00", attempt=3
    )
    assert before_all.candidates == [] and before_all.null_match


def test_as_of_recalls_only_what_was_recorded_by_then(rg: Recollect, cli_env: Settings) -> None:
    scope = f"rt-{uuid.uuid4().hex[:8]}"
    _session(rg, scope, "s-old", 1, "billing export")
    time.sleep(0.05)
    moment = datetime.now(UTC)
    time.sleep(0.05)
    _session(rg, scope, "s-new", 2, "billing export")  # happened in Feb, recorded after moment
    text = "the session where the billing export CI cache kept failing"
    assert set(_ids(rg.recall(text, scope_id=scope, touch=False))) == {"s-old", "s-new"}
    then = rg.recall(text, scope_id=scope, touch=False, as_of=moment)
    assert _ids(then) == ["s-old"]
    r = CliRunner().invoke(
        cli,
        ["recall", text, "--scope", scope, "--as-of", moment.isoformat(), "--json"],
    )
    assert r.exit_code == 0, (r.stdout, r.stderr)
    assert [c["session_id"] for c in json.loads(r.stdout)["candidates"]] == ["s-old"]
    bad = CliRunner().invoke(
        cli, ["recall", text, "--scope", scope, "--valid-at", "soon", "--json"]
    )
    assert bad.exit_code == 1 and json.loads(bad.stdout)["error"] == "invalid_input"


def test_a_time_clue_ranks_the_sessions_of_that_time_first(rg: Recollect) -> None:
    scope = f"rt-{uuid.uuid4().hex[:8]}"
    now = datetime(2026, 12, 1, tzinfo=UTC)
    _session(rg, scope, "s-jan", 1, "frontend build")
    _session(rg, scope, "s-jun", 6, "frontend build")
    _session(rg, scope, "s-sep", 9, "web bundle")  # said in other words: less salient
    text = "the session where the frontend build CI cache kept failing"
    plain = _ids(rg.recall(text, scope_id=scope, touch=False, now=now))
    assert plain[:2] in (["s-jan", "s-jun"], ["s-jun", "s-jan"])  # "web bundle": behind, or out
    for month, sid in (("September", "s-sep"), ("June", "s-jun"), ("January", "s-jan")):
        timed = rg.recall(f"{text} in {month}", scope_id=scope, touch=False, now=now)
        assert _ids(timed)[0] == sid, (month, _ids(timed))
        assert "started in the time you named" in timed.candidates[0].evidence
    # a span counted back to today: only September's session is inside the last three months
    recent = rg.recall(f"{text} over the past three months", scope_id=scope, touch=False, now=now)
    assert _ids(recent)[0] == "s-sep", _ids(recent)
    # the answer to a temporal probe re-ranks the same way
    probed = rg.recall(
        text, scope_id=scope, touch=False, attempt=2, hints=["in September"], now=now
    )
    assert _ids(probed)[0] == "s-sep"
