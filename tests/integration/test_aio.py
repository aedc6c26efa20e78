"""AsyncRecollect against the real Neo4j: the same records as the sync facade."""

from __future__ import annotations

import asyncio

import pytest

from recollect_graph import Recollect, Settings
from recollect_graph.aio import AsyncRecollect
from recollect_graph.errors import EntryNotFound, InvalidInput, SessionNotFound


def test_async_reads_match_the_sync_facade(
    rg: Recollect, server_settings: Settings, scope_id: str
) -> None:
    a = rg.remember("We chose Vite over webpack", scope_id=scope_id, owner_id="kai", title="Vite")
    b = rg.remember("CI caches node_modules by lockfile hash", scope_id=scope_id, owner_id="kai")
    rg.remember("elsewhere", scope_id=f"{scope_id}-other", owner_id="kai")
    rg.forget(b.id, scope_id=scope_id)
    rg.sessions.add_turns(
        "s1",
        [{"id": "t1", "role": "user", "text": "hello there"}],
        scope_id=scope_id,
        owner_id="kai",
    )

    async def main() -> dict[str, object]:
        async with await AsyncRecollect.open(server_settings) as arg:
            got = await arg.get(a.id, scope_id=scope_id)
            many = await arg.get_many([a.id, "nope", a.id], scope_id=scope_id)
            with pytest.raises(InvalidInput):
                await arg.get(a.id, scope_id=None)
            recent = await arg.recent(scope_id, limit=10)
            ops = await arg.operations(scope_id)
            sessions = await arg.sessions(scope_id)
            turns = await arg.turns("s1", scope_id=scope_id)
            # concurrent reads on one facade
            many_recent = await asyncio.gather(*(arg.recent(scope_id) for _ in range(5)))
            with pytest.raises(EntryNotFound):
                await arg.get(a.id, scope_id=f"{scope_id}-other")
            with pytest.raises(SessionNotFound):
                await arg.turns("s1", scope_id=f"{scope_id}-other")
            hits = await arg.search("which bundler did we pick", scope_id=scope_id, limit=3)
            return locals()

    out = asyncio.run(main())
    stored = ("id", "scope_id", "owner_id", "content", "title", "tags", "entry_type", "created_at")
    sync = rg.get(a.id, scope_id=scope_id, touch=False).model_dump(include=set(stored))
    assert out["got"].model_dump(include=set(stored)) == sync  # type: ignore[attr-defined]
    assert type(out["got"]) is type(
        rg.get(a.id, scope_id=scope_id, touch=False)
    )  # the same record class
    assert [e.id for e in out["many"]] == [a.id]  # type: ignore[attr-defined]
    assert [e.id for e in out["recent"]] == [e.id for e in rg.recent(scope_id, limit=10)]  # type: ignore[attr-defined]
    recent_ids = [e.id for e in out["recent"]]  # type: ignore[attr-defined]
    assert a.id in recent_ids and b.id not in recent_ids  # b was forgotten (the turn is an entry)
    assert [o.id for o in out["ops"]] == [o.id for o in rg.operations(scope_id)]  # type: ignore[attr-defined]
    assert out["ops"][0].kind == "forget"  # type: ignore[index]
    assert [s["id"] for s in out["sessions"]] == ["s1"]  # type: ignore[attr-defined]
    assert [t["text"] for t in out["turns"]] == ["hello there"]  # type: ignore[attr-defined]
    assert all([e.id for e in r] == recent_ids for r in out["many_recent"])  # type: ignore[attr-defined]
    hits = out["hits"]
    assert hits[0].entry.id == a.id and hits[0].signals.semantic > 0  # type: ignore[index]


def test_async_open_of_an_unreachable_server_is_a_clear_error(server_settings: Settings) -> None:
    from recollect_graph.db.host import free_port
    from recollect_graph.errors import DatabaseUnavailable

    cfg = server_settings.model_copy(update={"neo4j_uri": f"bolt://127.0.0.1:{free_port()}"})
    with pytest.raises(DatabaseUnavailable, match="not reachable"):
        asyncio.run(AsyncRecollect.open(cfg))
