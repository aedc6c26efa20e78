"""Connection faults: the server goes away during a session and comes back.

- With the server down, every call fails with :class:`DatabaseUnavailable` once the driver's
  retry budget is spent (1 s for this client; the library's own is 30 s), and a write that
  failed is not in the graph afterwards: nothing is reported done that was not committed.
- The library's writes are managed transactions, so a write issued while the server is down
  completes by itself once it is back (within its retry budget).
- The same client objects work again after the restart.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner

from recollect_graph import Recollect
from recollect_graph.cli.main import cli
from recollect_graph.db.host import free_port
from recollect_graph.errors import DatabaseUnavailable, EntryNotFound
from tests.helpers import assert_one_line_error
from tests.reliability.support import Crashable, violations


def test_server_gone_then_back_during_a_session(crashable: Crashable, rg: Recollect) -> None:
    scope = f"fault-{uuid.uuid4().hex[:10]}"
    short = crashable.recollect(rg.embedder, retry_s=1.0)  # a short retry budget: fails fast
    patient = crashable.recollect(rg.embedder, retry_s=300)  # outlasts a restart
    try:
        kept = short.remember("Written before the outage", scope_id=scope, owner_id="kai")
        short.sessions.add_turns("chat", [{"id": "t0", "speaker": "Ana", "text": "before"}],
                                 scope_id=scope, owner_id="kai")  # fmt: skip
        assert crashable.server.stop()

        calls: dict[str, Callable[[], Any]] = {
            "remember": lambda: short.remember("Lost in the outage", scope_id=scope,
                                               owner_id="kai"),
            "remember_many": lambda: short.remember_many(
                [{"content": "Also lost in the outage"}], scope_id=scope, owner_id="kai"),
            "search": lambda: short.search("outage", scope_id=scope),
            "add_turns": lambda: short.sessions.add_turns(
                "chat", [{"id": "t1", "speaker": "Ana", "text": "lost"}], scope_id=scope,
                owner_id="kai"),
        }  # fmt: skip
        for name, call in calls.items():
            t0 = time.monotonic()
            with pytest.raises(DatabaseUnavailable) as err:
                call()
            assert time.monotonic() - t0 < 60, name
            assert err.value.code == "unavailable"
            assert "not reachable" in str(err.value) or "Neo4j" in str(err.value), name

        # a write issued while the server is down completes once it is back
        done: dict[str, Any] = {}

        def write_through_the_outage() -> None:
            try:
                done["entry"] = patient.remember(
                    "Written while the server restarts", scope_id=scope, owner_id="kai"
                )
            except BaseException as e:
                done["error"] = e

        writer = threading.Thread(target=write_through_the_outage)
        writer.start()
        time.sleep(2)
        assert writer.is_alive(), done  # still retrying, not failed
        crashable.restart()
        writer.join(timeout=300)
        assert "error" not in done and done["entry"].created

        # what failed is not there; what was acknowledged is; the clients work again
        contents = [e.content for e in short.recent(scope, limit=50)]
        assert "Lost in the outage" not in contents
        assert "Also lost in the outage" not in contents
        assert contents.count("Written while the server restarts") == 1
        assert short.get(kept.id, scope_id=scope).content == "Written before the outage"
        assert [t["text"] for t in short.sessions.turns("chat", scope_id=scope)] == ["before"]
        with pytest.raises(EntryNotFound):
            short.get(kept.id + "x", scope_id=scope)
        again = short.remember("Lost in the outage", scope_id=scope, owner_id="kai")
        assert again.created
        assert violations(short, scope) == {}
    finally:
        crashable.ensure_up()
        short.close()
        patient.close()


def test_cli_with_no_server_prints_one_error_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEO4J_URI", f"bolt://127.0.0.1:{free_port()}")  # nothing listens there
    monkeypatch.setenv("NEO4J_PASSWORD", "not-used")
    r = CliRunner().invoke(cli, ["recent", "--scope", "x"])
    assert_one_line_error(r, "not reachable")
