"""Concurrency: workers remembering, connecting, rating, superseding, searching and adding turns
in one scope at once. Nothing is lost or doubled: one entry per content or source id, one edge
per (pair, type), access counters exact, every operation done (a deadlock the driver did not
retry would surface as an error), and ``check_invariants()`` is clean.

The default run is 4 threads x 50 operations; the ``heavy`` variant 8 processes x 1,000
(``RECOLLECT_HEAVY_PROCS`` / ``RECOLLECT_HEAVY_OPS`` change it).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from recollect_graph import Recollect
from recollect_graph.errors import EntryNotFound
from tests.reliability.ops import HEAVY_MIX, MIX, SHARED_FACTS, merge, prepare, run_ops
from tests.reliability.support import Crashable, violations


def _scope() -> str:
    return f"conc-{uuid.uuid4().hex[:10]}"


def check_state(rg: Recollect, job: dict[str, Any], total: dict[str, Any], ops: int) -> None:
    """What the graph must hold after the workers' tallies ``total``."""
    scope, done = job["scope"], total["done"]
    assert total["errors"] == []
    assert sum(done.values()) == ops
    rows = rg.query(
        "MATCH (e:Entry {scope_id: $s}) RETURN e.id AS id, e.content AS content, "
        "e.source_id AS source_id, coalesce(e.access_count, 0) AS access, "
        "e.retired_at IS NOT NULL AS retired, e:Turn AS turn",
        {"s": scope},
    )
    contents = [r["content"] for r in rows if r["content"] in SHARED_FACTS]
    assert sorted(contents) == sorted(set(contents))  # the same content is one entry
    sids = [r["source_id"] for r in rows if r["source_id"] and not r["turn"]]
    assert len(sids) == len(set(sids))
    assert sum(1 for s in sids if "-obs-" in s) == done.get("remember_new", 0)
    assert sum(1 for s in sids if "-rev-" in s) == done.get("supersede", 0)
    # access counts are exact: every search hit, fetch and rating counted once
    access = {r["id"]: int(r["access"]) for r in rows}
    expected = {i: total["touched"].get(i, 0) for i in access}
    assert access == expected
    assert sum(1 for r in rows if r["turn"]) == done.get("turns", 0)
    edges = rg.query(
        "MATCH (a:Entry {scope_id: $s})-[r]->(b:Entry) WHERE type(r) <> 'NEXT' "
        "RETURN type(r) AS type, count(*) AS n",
        {"s": scope},
    )
    by_type = {r["type"]: int(r["n"]) for r in edges}
    assert by_type.get("SUPERSEDES", 0) == done.get("supersede", 0)
    pairs = len(job["nodes"]) * (len(job["nodes"]) - 1) * 3
    assert sum(by_type.get(t, 0) for t in ("SUPPORTS", "RELATED_TO", "DEPENDS_ON")) <= pairs
    if done.get("supersede"):
        retired = {r["id"] for r in rows if r["retired"]}
        assert retired <= set(job["policies"]) and retired
    assert violations(rg, scope) == {}


def test_threads_share_one_scope(rg: Recollect) -> None:
    job = prepare(rg, _scope())
    workers, ops = 4, 50
    with ThreadPoolExecutor(workers) as ex:
        tallies = list(
            ex.map(lambda w: run_ops(rg, {**job, "worker": w, "ops": ops}), range(workers))
        )
    total = merge(tallies)
    assert set(total["done"]) == set(MIX)  # the mix really ran every kind
    check_state(rg, job, total, workers * ops)


def test_concurrent_ratings_of_one_memory_are_all_counted(rg: Recollect) -> None:
    scope = _scope()
    target = rg.remember("A memory everyone rates", scope_id=scope, owner_id="kai", title="rated")
    mem = rg.memories.in_scope(scope, "kai")

    def rate(_: int) -> None:
        for _ in range(25):
            mem.feedback([{"id": target.id, "useful": True, "confidence": 9}])

    with ThreadPoolExecutor(4) as ex:
        list(ex.map(rate, range(4)))
    row = rg.query(
        "MATCH (e:Entry {id: $id}) RETURN e.feedback_count AS n, e.access_count AS uses",
        {"id": target.id},
    )[0]
    assert row == {"n": 100, "uses": 100}


def test_two_forgets_of_one_entry_race_and_one_wins(rg: Recollect) -> None:
    """Two threads forget the same entry at once, 10 rounds: each time exactly one succeeds, the
    other is told not found, and exactly one ``forget`` operation is logged."""
    scope = _scope()
    barrier = threading.Barrier(2, timeout=30)
    for round_ in range(10):
        e = rg.remember(f"Entry {round_} to forget twice", scope_id=scope, owner_id="kai")

        def forget(_: int, entry_id: str = e.id) -> str:
            barrier.wait()
            try:
                rg.forget(entry_id, scope_id=scope)
            except EntryNotFound:
                return "not found"
            return "forgotten"

        with ThreadPoolExecutor(2) as ex:
            outcomes = sorted(ex.map(forget, range(2)))
        assert outcomes == ["forgotten", "not found"], (round_, outcomes)
        ops = rg.query(
            "MATCH (o:Operation {scope_id: $s, kind: 'forget'}) WHERE $id IN o.entry_ids "
            "RETURN count(o) AS n",
            {"s": scope, "id": e.id},
        )
        assert ops == [{"n": 1}], round_
        assert rg.get_many([e.id], scope_id=scope) == []
    assert violations(rg, scope) == {}


def test_concurrent_add_turns_to_one_session_keep_one_chain(rg: Recollect) -> None:
    scope = _scope()
    rg.sessions.add_turns("chat", [{"id": "start", "speaker": "Ana", "text": "hello"}],
                          scope_id=scope, owner_id="kai", index=False)  # fmt: skip

    def add(w: int) -> None:
        for j in range(8):
            rg.sessions.add_turns(
                "chat", [{"id": f"w{w}-{j}", "speaker": "Ana", "text": f"worker {w} line {j}"}],
                scope_id=scope, owner_id=f"w{w}", index=False,
            )  # fmt: skip

    with ThreadPoolExecutor(4) as ex:
        list(ex.map(add, range(4)))
    assert violations(rg, scope) == {}


def race_forget_and_read(rg: Recollect, n: int) -> dict[str, Any]:
    """One thread forgets ``n`` entries one by one while two read them back (search, fetch, get).

    Every read records its access (access counts, access events) on items a forget may be
    deleting at that moment. Returns ``{errors, reads, hits}``.
    """
    scope = _scope()
    texts = [f"Runbook {i}: the nightly export job {i} writes to bucket {i}" for i in range(n)]
    entries = rg.remember_many(
        [{"content": t, "title": f"export job {i}"} for i, t in enumerate(texts)],
        scope_id=scope,
        owner_id="kai",
    )
    ids = [e.id for e in entries]
    mem = rg.memories.in_scope(scope, "kai")
    errors: list[str] = []
    forget_errors: list[str] = []
    tally = {"reads": 0, "hits": 0, "forget_retries": 0}
    done = threading.Event()

    def forget() -> None:
        try:
            for eid in ids:
                # a forget (its exact-undo capture reads a neighbourhood) may lose lock races to
                # the readers' access writes: retried with a growing pause
                for attempt in range(20):
                    try:
                        rg.forget(eid, scope_id=scope)
                        break
                    except EntryNotFound:
                        break
                    except Exception as e:
                        tally["forget_retries"] += 1
                        time.sleep(0.02 * (attempt + 1))
                        if attempt == 19:
                            forget_errors.append(f"{type(e).__name__}: {e}")
        finally:
            done.set()

    def read(w: int) -> None:
        i = 0
        deadline = time.monotonic() + 300
        while (not done.is_set() or i < 5) and time.monotonic() < deadline:
            # readers take turns with the forgets instead of starving them: every read adds an
            # ACCESSED edge to each hit, which the next forget must lock, capture and delete
            time.sleep(0.05)
            try:
                if w == 0:
                    hits = rg.search("nightly export job bucket", scope_id=scope, limit=20)
                    tally["hits"] += len(hits)
                else:
                    tally["hits"] += len(mem.search(ids=ids)["results"])
                    with contextlib.suppress(EntryNotFound):
                        rg.get(ids[(i * 7) % len(ids)], scope_id=scope)
            except Exception as e:  # every failure is the finding
                errors.append(f"{type(e).__name__}: {e}")
            tally["reads"] += 1
            i += 1

    threads = [threading.Thread(target=forget)] + [
        threading.Thread(target=read, args=(w,)) for w in range(2)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert forget_errors == [], forget_errors[:3]
    assert violations(rg, scope) == {}
    assert rg.query("MATCH (e:Entry {scope_id: $s}) RETURN count(e) AS n", {"s": scope}) == [
        {"n": 0}
    ]
    return {"errors": errors, **tally}


def test_reads_while_their_hits_are_forgotten_never_fail(rg: Recollect) -> None:
    """A hit forgotten while a search, fetch or get records its access is skipped, not an error."""
    out = race_forget_and_read(rg, 24)
    assert out["errors"] == [], out["errors"][:3]
    assert out["reads"] >= 10 and out["hits"] > 0


@pytest.mark.heavy
def test_reads_while_many_hits_are_forgotten_never_fail(rg: Recollect) -> None:
    out = race_forget_and_read(rg, 400)
    assert out["errors"] == [], out["errors"][:3]


@pytest.mark.heavy
def test_processes_share_one_scope(crashable: Crashable, rg: Recollect, tmp_path: Path) -> None:
    procs_n = int(os.environ.get("RECOLLECT_HEAVY_PROCS", "8"))
    ops = int(os.environ.get("RECOLLECT_HEAVY_OPS", "1000"))
    crashable.ensure_up()
    client = crashable.recollect(rg.embedder, retry_s=30)
    try:
        job = prepare(client, _scope())
        outs = [tmp_path / f"tally-{w}.json" for w in range(procs_n)]
        jobs = [{**job, "job": "mixed", "worker": w, "ops": ops, "out": str(out), "mix": HEAVY_MIX}
                for w, out in enumerate(outs)]  # fmt: skip
        cmd = [sys.executable, "-m", "tests.reliability.worker"]
        root = Path(__file__).parents[2]
        procs = [
            subprocess.Popen([*cmd, json.dumps(j)], env=crashable.env(), cwd=root) for j in jobs
        ]
        for p in procs:
            assert p.wait(timeout=3600) == 0
        total = merge([json.loads(out.read_text()) for out in outs])
        assert set(total["done"]) == set(HEAVY_MIX)
        print(f"\n{procs_n} processes x {ops} operations: {total['done']}")
        check_state(client, job, total, procs_n * ops)
    finally:
        client.close()
