"""Crash and restart: kill -9 Neo4j (or the client) in the middle of multi-transaction writes.

Six writers (``remember_many``, a notes-learner run, ``add_turns`` of a long conversation, a
sweep, a supersede, a ``consolidate --apply``) each stop right after their first acknowledged
step (a progress callback or a committed statement: deterministic), or, for the two that are one
transaction (supersede, consolidate), half-way through it; the reliability tests' own server is
then killed with SIGKILL, each call fails with a clear error, and the server is restarted. Then:

1. every acknowledged write is there, and nothing of the step that was cut off;
2. ``check_invariants()`` finds nothing (no partial entry, claim, turn chain or suggestion);
3. running the same operation again completes it, with no duplicates.

The default run kills the server once with all six writers in flight; the ``heavy`` variants
kill it once per writer. The last tests kill the client process instead, in the middle of a batch
and half-way through a ``consolidate --apply``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from recollect_graph import Recollect
from recollect_graph.errors import DatabaseUnavailable
from recollect_graph.services.memories import sweep as sweep_mod
from tests.integration.test_contradictions import dump
from tests.reliability.support import (
    Crashable,
    consolidation_items,
    stop_inside_tx,
    violations,
    write_notes,
)
from tests.reliability.worker import remember_items

Step = Callable[[], None]


def _count(rg: Recollect, cypher: str, **params: Any) -> int:
    return int(rg.query(cypher, params)[0]["n"])


def _entries(rg: Recollect, scope: str) -> int:
    return _count(rg, "MATCH (e:Entry {scope_id: $s}) RETURN count(e) AS n", s=scope)


class Scenario:
    """One write that is cut off after its first acknowledged step.

    ``run`` calls ``step()`` once, right after that step, and must then fail (the server is
    dead); ``after_crash`` checks the restarted graph; ``rerun`` completes and checks it.
    """

    name = "scenario"

    def __init__(self, tmp: Path) -> None:
        self.scope = f"crash-{self.name}-{uuid.uuid4().hex[:8]}"
        self.tmp = tmp

    def setup(self, rg: Recollect) -> None:
        return None

    def run(self, rg: Recollect, step: Step) -> None:
        raise NotImplementedError

    def after_crash(self, rg: Recollect) -> None:
        raise NotImplementedError

    def rerun(self, rg: Recollect) -> None:
        raise NotImplementedError


ITEMS = [
    {"content": f"Service {i} keeps its job queue in Postgres", "source_id": f"svc-{i}",
     "tags": ["db"]}
    for i in range(24)
]  # fmt: skip
T0 = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
TURNS = [
    {"id": f"t{i:03d}", "speaker": "Ana" if i % 2 == 0 else "assistant",
     "text": f"Message {i}: we set the cache size to {i} MB", "at": T0 + timedelta(minutes=i)}
    for i in range(150)
]  # fmt: skip


class RememberMany(Scenario):
    name = "remember"
    items = ITEMS

    def run(self, rg: Recollect, step: Step) -> None:
        self.acked: list[int] = []

        def progress(done: int, total: int) -> None:
            self.acked.append(done)
            if len(self.acked) == 1:
                step()

        rg.remember_many(
            self.items, scope_id=self.scope, owner_id="kai", progress=progress, batch_size=8
        )

    def after_crash(self, rg: Recollect) -> None:
        assert self.acked == [8]
        assert _entries(rg, self.scope) == 8  # the acknowledged batch, no part of the next one
        claims = "MATCH (c:Claim {scope_id: $s}) RETURN count(c) AS n"
        assert _count(rg, claims, s=self.scope) >= 8  # committed with their entries

    def rerun(self, rg: Recollect) -> None:
        again = rg.remember_many(self.items, scope_id=self.scope, owner_id="kai", batch_size=8)
        assert [e.created for e in again] == [False] * 8 + [True] * 16
        assert _entries(rg, self.scope) == 24


class Learn(Scenario):
    name = "learn"

    def setup(self, rg: Recollect) -> None:
        folder = self.tmp / f"notes-{self.scope}"
        write_notes(folder, 12)
        self.sources = {"notes": {"folder": str(folder)}}

    def run(self, rg: Recollect, step: Step) -> None:
        self.acked: list[int] = []

        def progress(source: str, done: int, total: int) -> None:
            if done > 0:
                self.acked.append(done)
                if len(self.acked) == 1:
                    step()

        rg.learners.learn(self.scope, "kai", self.sources, progress=progress, batch_size=4)

    def after_crash(self, rg: Recollect) -> None:
        assert self.acked == [4]
        assert _entries(rg, self.scope) == 4
        assert rg.learners.cursors(self.scope)[0]["run_open"] is True

    def rerun(self, rg: Recollect) -> None:
        res = rg.learners.learn(self.scope, "kai", self.sources, batch_size=4)["notes"]
        assert res.resumed and res.learned == 8 and not res.errors
        assert _entries(rg, self.scope) == 12
        assert rg.learners.cursors(self.scope)[0]["run_open"] is False
        assert rg.learners.learn(self.scope, "kai", self.sources)["notes"].learned == 0


class AddTurns(Scenario):
    name = "turns"
    turns = TURNS
    held = "MATCH (:Session {scope_id: $s, id: 'long-chat'})-[:HAS_TURN]->(t) RETURN count(t) AS n"

    def run(self, rg: Recollect, step: Step) -> None:
        self.acked: list[int] = []

        def progress(done: int, total: int) -> None:
            self.acked.append(done)
            if len(self.acked) == 1:
                step()

        rg.sessions.add_turns(
            "long-chat", self.turns, scope_id=self.scope, owner_id="kai", progress=progress
        )

    def after_crash(self, rg: Recollect) -> None:
        assert self.acked == [128]
        assert _count(rg, self.held, s=self.scope) == 128

    def rerun(self, rg: Recollect) -> None:
        res = rg.sessions.add_turns("long-chat", self.turns, scope_id=self.scope, owner_id="kai")
        assert (res.added, res.existing) == (22, 128)
        assert _count(rg, self.held, s=self.scope) == 150
        chain = "MATCH (a:Turn {scope_id: $s})-[:NEXT]->(b:Turn) RETURN count(*) AS n"
        assert _count(rg, chain, s=self.scope) == 149
        texts = [t["text"] for t in rg.sessions.turns("long-chat", scope_id=self.scope)]
        assert texts == [t["text"] for t in self.turns]
        again = rg.sessions.add_turns("long-chat", self.turns, scope_id=self.scope, owner_id="kai")
        assert again.added == 0


def _memories(n: int) -> list[dict[str, Any]]:
    tools = ["Postgres", "Redis", "Kafka"]
    return [
        {"title": f"{tools[i % 3]} note {i}",
         "content": f"Service {i} uses {tools[i % 3]}; its {tools[i % 3]} pool holds {i + 4} "
                    "connections"}
        for i in range(n)
    ]  # fmt: skip


def _suggested_pairs(rg: Recollect, scope: str) -> set[tuple[frozenset[str], str]]:
    rows = rg.query(
        "MATCH (s:LinkSuggestion {scope_id: $s}) "
        "MATCH (a:Entry {id: s.from_id}), (b:Entry {id: s.to_id}) "
        "RETURN a.title AS a, b.title AS b, s.relation_type AS rel",
        {"s": scope},
    )
    return {(frozenset((r["a"], r["b"])), r["rel"]) for r in rows}


class Sweep(Scenario):
    """Needs ``sweep.SWEEP_BATCH`` lowered (4), so 12 memories take three write steps."""

    name = "sweep"

    def setup(self, rg: Recollect) -> None:
        self.clean = self.scope + "-clean"
        for s in (self.scope, self.clean):
            rg.remember_many(_memories(12), scope_id=s, owner_id="kai")

    def run(self, rg: Recollect, step: Step) -> None:
        write = rg.db.write
        self.acked: list[str] = []

        def write_then_stop(name: str, /, **params: Any) -> Any:
            rows = write(name, **params)
            if name == "links/suggestion_upsert" and not self.acked:
                self.acked.extend(r["id"] for r in rows)
                step()
            return rows

        rg.db.write = write_then_stop  # type: ignore[method-assign]
        try:
            rg.memories.in_scope(self.scope, "kai").sweep(min_score=0.0)
        finally:
            del rg.db.write

    def after_crash(self, rg: Recollect) -> None:
        assert self.acked
        rows = rg.query("MATCH (s:LinkSuggestion {scope_id: $s}) RETURN s.id AS id",
                        {"s": self.scope})  # fmt: skip
        assert {r["id"] for r in rows} == set(self.acked)

    def rerun(self, rg: Recollect) -> None:
        res = rg.memories.in_scope(self.scope, "kai").sweep(min_score=0.0)
        assert res["full"] is True  # the cursor did not move past the interrupted sweep
        rg.memories.in_scope(self.clean, "kai").sweep(min_score=0.0)
        pairs = _suggested_pairs(rg, self.scope)
        assert pairs == _suggested_pairs(rg, self.clean)  # as if never interrupted
        total = "MATCH (s:LinkSuggestion {scope_id: $s}) RETURN count(s) AS n"
        assert _count(rg, total, s=self.scope) == len(pairs)


class Supersede(Scenario):
    """``supersede`` writes its new-value entry, the retirement and the operation in one
    transaction; it is cut half-way (the old entry retired, nothing committed)."""

    name = "supersede"
    edges = "MATCH (:Entry {scope_id: $s})-[r:SUPERSEDES]->() RETURN count(r) AS n"

    def setup(self, rg: Recollect) -> None:
        old = rg.remember("The frontend build uses webpack", scope_id=self.scope, owner_id="kai")
        self.old = old.id
        self.before = dump(rg, self.scope)

    def run(self, rg: Recollect, step: Step) -> None:
        with stop_inside_tx(rg, "supersede/retire", step):
            rg.supersede(self.scope, "frontend build", "uses", "vite")

    def after_crash(self, rg: Recollect) -> None:
        assert (
            rg.get(self.old, scope_id=self.scope, touch=False).retired_at is None
        )  # nothing half-happened:
        assert _count(rg, self.edges, s=self.scope) == 0
        assert _entries(rg, self.scope) == 1  # not even the new-value entry

    def rerun(self, rg: Recollect) -> None:
        res = rg.supersede(self.scope, "frontend build", "uses", "vite")
        assert res.superseded == [self.old] and res.created
        assert rg.get(self.old, scope_id=self.scope, touch=False).retired_at is not None
        assert _count(rg, self.edges, s=self.scope) == 1
        assert _entries(rg, self.scope) == 2  # the old statement and one new-value entry
        assert rg.supersede(self.scope, "frontend build", "uses", "vite").superseded == []
        rg.undo(
            res.operation_id, scope_id=self.scope
        )  # the re-run wrote the new-value entry, so undo removes it
        assert _undone(dump(rg, self.scope)) == self.before


def _undone(d: list[Any]) -> list[Any]:
    """A scope's dump without its Operation nodes (undo keeps the operation, marked undone)."""
    return [[n for n in d[0] if "Operation" not in n["l"]], d[1]]


class Consolidate(Scenario):
    """``consolidate --apply`` of 6 groups of near-duplicates, cut half-way through its one
    transaction (the first group's members retired, nothing committed)."""

    name = "consolidate"
    clusters = 6

    def setup(self, rg: Recollect) -> None:
        rg.remember_many(consolidation_items(self.clusters), scope_id=self.scope, owner_id="kai")
        self.before = dump(rg, self.scope)

    def run(self, rg: Recollect, step: Step) -> None:
        with stop_inside_tx(rg, "supersede/retire", step):
            rg.consolidate(self.scope, dry_run=False)

    def after_crash(self, rg: Recollect) -> None:
        assert dump(rg, self.scope) == self.before  # no entry, edge, retirement or operation

    def rerun(self, rg: Recollect) -> None:
        check_consolidated_exactly(rg, self.scope, self.clusters, self.before)


def check_consolidated_exactly(rg: Recollect, scope: str, clusters: int, before: list[Any]) -> None:
    """``consolidate --apply`` completes exactly once; a second run finds nothing; undo restores."""
    done = rg.consolidate(scope, dry_run=False)
    assert done.applied and len(done.consolidated_ids) == clusters
    rels = (
        "MATCH (c:Entry {scope_id: $s, source_type: 'consolidated'})-[r]->(m:Entry) "
        "WHERE m.retired_by = c.id RETURN type(r) AS t, count(*) AS n ORDER BY t"
    )
    assert rg.query(rels, {"s": scope}) == [
        {"t": "DERIVED_FROM", "n": 3 * clusters},
        {"t": "SUPERSEDES", "n": 3 * clusters},
    ]
    twice = "MATCH (e:Entry {scope_id: $s}) WHERE e.content CONTAINS 'consolidated from' RETURN e.content AS c"
    assert all(r["c"].count("consolidated from") == 1 for r in rg.query(twice, {"s": scope}))
    assert _entries(rg, scope) == 4 * clusters
    assert violations(rg, scope) == {}
    again = rg.consolidate(scope, dry_run=False)
    assert again.merges == [] and not again.applied
    rg.undo(done.operation_id, scope_id=scope)
    assert _undone(dump(rg, scope)) == before
    assert violations(rg, scope) == {}


SCENARIOS: list[type[Scenario]] = [RememberMany, Learn, AddTurns, Sweep, Supersede, Consolidate]


@pytest.fixture
def clients(crashable: Crashable, rg: Recollect) -> Iterator[Callable[[], Recollect]]:
    """Fresh clients of the crashable server (own driver each, so patches stay per client)."""
    made: list[Recollect] = []

    def make() -> Recollect:
        made.append(crashable.recollect(rg.embedder))
        return made[-1]

    yield make
    for r in made:
        r.close()


def test_six_writers_killed_at_once_after_their_first_step(
    crashable: Crashable,
    clients: Callable[[], Recollect],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sweep_mod, "SWEEP_BATCH", 4)
    scenarios = [cls(tmp_path) for cls in SCENARIOS]
    rgs = [clients() for _ in scenarios]
    for sc, r in zip(scenarios, rgs, strict=True):
        sc.setup(r)
    gate = threading.Barrier(len(scenarios) + 1, timeout=600)
    errors: dict[str, BaseException | None] = {}

    def step() -> None:
        gate.wait()  # every writer has made its first step...
        gate.wait()  # ...and the server is dead

    def go(sc: Scenario, r: Recollect) -> None:
        try:
            sc.run(r, step)
            errors[sc.name] = None
        except BaseException as e:
            errors[sc.name] = e
            gate.abort()

    threads = [threading.Thread(target=go, args=pair) for pair in zip(scenarios, rgs, strict=True)]
    for t in threads:
        t.start()
    try:
        gate.wait()
        crashable.kill9()
        gate.wait()
    except threading.BrokenBarrierError:
        pass  # a writer failed before its first step: the assertion below shows how
    finally:
        for t in threads:
            t.join(timeout=600)
    assert {k: type(v).__name__ for k, v in errors.items()} == {
        sc.name: "DatabaseUnavailable" for sc in scenarios
    }, errors
    crashable.restart()
    probe = rgs[0]
    for sc in scenarios:
        sc.after_crash(probe)
    assert violations(probe, None) == {}
    for sc, r in zip(scenarios, rgs, strict=True):
        sc.rerun(r)
    assert violations(probe, None) == {}


@pytest.mark.heavy
@pytest.mark.parametrize("cls", SCENARIOS, ids=[c.name for c in SCENARIOS])
def test_each_writer_killed_after_its_first_step(
    cls: type[Scenario],
    crashable: Crashable,
    clients: Callable[[], Recollect],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sweep_mod, "SWEEP_BATCH", 4)
    sc, r = cls(tmp_path), clients()
    sc.setup(r)

    def kill() -> None:
        crashable.kill9()

    with pytest.raises(DatabaseUnavailable, match=r"not reachable|failed"):
        sc.run(r, kill)
    crashable.restart()
    sc.after_crash(r)
    assert violations(r, None) == {}
    sc.rerun(r)
    assert violations(r, None) == {}


def _kill_worker(crashable: Crashable, job: dict[str, Any], progress: Path) -> None:
    """Run a worker job and SIGKILL it as soon as it writes anything to ``progress``."""
    progress.write_text("")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.reliability.worker",
            json.dumps({**job, "progress": str(progress)}),
        ],
        env=crashable.env(),
        cwd=Path(__file__).parents[2],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 300
        while not progress.read_text().strip():
            if proc.poll() is not None:
                raise AssertionError(proc.stderr.read().decode() if proc.stderr else "exited")
            assert time.monotonic() < deadline, "the worker reported nothing in time"
            time.sleep(0.02)
        proc.kill()
    finally:
        proc.wait(timeout=60)
        if proc.stderr:
            proc.stderr.close()
    assert proc.returncode == -9


def _kill_client_mid_batch(crashable: Crashable, scope: str, tmp: Path, n: int, batch: int) -> int:
    """Run the worker's ``remember`` job and SIGKILL it after its first acknowledged batch."""
    progress = tmp / f"progress-{scope}"
    _kill_worker(crashable, {"job": "remember", "scope": scope, "n": n, "batch": batch}, progress)
    return max(int(x) for x in progress.read_text().split())


def test_client_process_killed_mid_batch(
    crashable: Crashable, clients: Callable[[], Recollect], tmp_path: Path
) -> None:
    """The Python side: SIGKILL a client in the middle of ``remember_many``; nothing half-done."""
    crashable.ensure_up()
    scope, n, batch = f"crash-client-{uuid.uuid4().hex[:8]}", 40, 8
    acked = _kill_client_mid_batch(crashable, scope, tmp_path, n, batch)
    r = clients()
    stored = _entries(r, scope)
    assert acked <= stored < n  # acknowledged writes are there; the kill cut the run short
    assert stored % batch == 0  # batches are atomic: none is half-written
    assert violations(r, None) == {}
    again = r.remember_many(remember_items(n), scope_id=scope, owner_id="worker", batch_size=batch)
    assert [e.created for e in again] == [False] * stored + [True] * (n - stored)
    assert _entries(r, scope) == n
    assert violations(r, None) == {}


@pytest.mark.heavy
def test_client_process_killed_again_and_again(
    crashable: Crashable, clients: Callable[[], Recollect], tmp_path: Path
) -> None:
    """Five clients in a row, each killed after its first batch; the sixth run completes."""
    crashable.ensure_up()
    scope, n, batch = f"crash-clients-{uuid.uuid4().hex[:8]}", 60, 6
    r = clients()
    before = 0
    for _ in range(5):
        _kill_client_mid_batch(crashable, scope, tmp_path, n, batch)
        stored = _entries(r, scope)
        assert stored % batch == 0 and stored >= before
        before = stored
        assert violations(r, None) == {}
    again = r.remember_many(remember_items(n), scope_id=scope, owner_id="worker", batch_size=batch)
    assert sum(1 for e in again if not e.created) == before
    assert _entries(r, scope) == n
    assert violations(r, None) == {}


def test_remember_file_says_what_was_stored_when_the_server_dies(
    crashable: Crashable, clients: Callable[[], Recollect], tmp_path: Path
) -> None:
    """``remember --file`` (5,120 items, batches of 256) with Neo4j SIGKILLed after the first
    batch: stdout says how many entries were stored before the error, and stderr holds one line,
    the ``Error:`` (no driver log lines, no progress bar: stderr is not a terminal).

    The file is far longer than what can be stored in the second before the kill, so the CLI
    always dies mid-file (with 700 items a fast machine once stored all three batches first)."""
    crashable.ensure_up()
    scope, n = f"crash-cli-{uuid.uuid4().hex[:8]}", 5120
    items = tmp_path / "items.jsonl"
    items.write_text("".join(json.dumps({"content": f"Fact {i}: service {i} uses queue {i}."})
                             + "\n" for i in range(n)))  # fmt: skip
    r = clients()
    proc = subprocess.Popen(
        [sys.executable, "-m", "recollect_graph", "remember", "--file", str(items),
         "--scope", scope, "--owner", "kai"],
        env=crashable.env(), cwd=Path(__file__).parents[2],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 300
        while _entries(r, scope) < 256:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no batch was stored in time"
            time.sleep(0.05)
        # the commit is seen here before the client has its acknowledgement: a moment for it to
        # arrive (the next batch of 256 takes seconds to embed), so the CLI knows what it stored
        time.sleep(1.0)
        crashable.kill9()
        out, err = proc.communicate(timeout=180)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 1, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), err
    said = re.search(rf"remembered (\d+) of {n} entries in scope \S+ before the error", out)
    assert said, out
    crashable.restart()
    stored, acknowledged = _entries(clients(), scope), int(said.group(1))
    # whole batches only; at most the one batch in flight committed without its acknowledgement
    assert acknowledged >= 256 and acknowledged % 256 == 0 and stored % 256 == 0, (out, stored)
    assert acknowledged <= stored <= acknowledged + 256 and stored < n, (out, stored)


def _consolidate_killed_in_tx(crashable: Crashable, r: Recollect, tmp: Path, clusters: int) -> None:
    scope = f"crash-consolidate-{uuid.uuid4().hex[:8]}"
    r.remember_many(consolidation_items(clusters), scope_id=scope, owner_id="kai")
    before = dump(r, scope)
    _kill_worker(crashable, {"job": "consolidate", "scope": scope}, tmp / f"progress-{scope}")
    assert dump(r, scope) == before  # the killed client's transaction left nothing behind
    assert violations(r, None) == {}
    check_consolidated_exactly(r, scope, clusters, before)


def test_client_killed_inside_consolidate_apply(
    crashable: Crashable, clients: Callable[[], Recollect], tmp_path: Path
) -> None:
    """SIGKILL a client half-way through ``consolidate --apply``: nothing of it is committed;
    a re-run consolidates every group exactly once, and undo restores the scope exactly."""
    crashable.ensure_up()
    _consolidate_killed_in_tx(crashable, clients(), tmp_path, 6)


@pytest.mark.heavy
def test_client_killed_inside_a_consolidate_of_30_groups(
    crashable: Crashable, clients: Callable[[], Recollect], tmp_path: Path
) -> None:
    """The issue's size: 30 groups of 3 (90 entries; 30 consolidated, 180 edges)."""
    crashable.ensure_up()
    _consolidate_killed_in_tx(crashable, clients(), tmp_path, 30)
