"""Property: every undo returns the scope to exactly the graph it had before the change.

Hypothesis draws random sequences of rounds. A round writes (remember, connect, index entities,
ingest a document, rate a memory), then makes a random run of destructive changes through the
public API (forget, soft delete, feedback soft delete, supersede, invalidate, resolve with and
without forgetting the loser, entity merge, document forget, consolidate), each one after an
exact snapshot of the scope (tests/snapshots.py: labels, every property, vectors by hash, every
relationship, counts), with undos interleaved; at the end of the round everything still done is
undone newest first. Each undo must give back the snapshot taken before its change, exactly.

The default suite runs a bounded number of sequences; the ``heavy`` variant (``make
test-reliability``) many more. Both print how many sequences, changes and undos they checked.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recollect_graph import Recollect
from recollect_graph.errors import RecollectError
from recollect_graph.services.memories.service import Memories
from tests.snapshots import difference, snapshot

TEXTS = (
    "Kai owns the search service.",
    "Ana owns the search service.",
    "The billing service depends on PostgreSQL for invoices.",
    "Alice tunes PostgreSQL every week.",
    "Postgres backups run nightly to the S3 bucket backups-prod.",
    "The nightly Postgres backup runs to the S3 bucket backups-prod.",
    "The frontend build uses webpack.",
    "Bob maintains the Grafana dashboards.",
    "We deploy with Helm charts on Tuesdays.",
)
DOCS = (
    ("Runbook", "# Runbook\n\nCarol restarts Grafana when dashboards stall. "
     "The billing service depends on PostgreSQL.\n\n## Pager\n\nBob owns the pager.\n"),
    ("Stack", "# Stack\n\nThe team runs Postgres for billing. Alice tunes PostgreSQL weekly.\n"),
)  # fmt: skip
WRITES = ("remember", "connect", "index", "ingest", "rate")
CHANGES = (
    "forget",
    "soft_delete",
    "feedback_delete",
    "supersede",
    "invalidate",
    "resolve",
    "resolve_forget",
    "merge",
    "doc_forget",
    "consolidate",
)

step = st.tuples(st.sampled_from((*CHANGES, "undo")), st.integers(0, 50), st.integers(0, 50))
write = st.tuples(st.sampled_from(WRITES), st.integers(0, 50), st.integers(0, 50))
rounds = st.lists(
    st.tuples(st.lists(write, min_size=1, max_size=4), st.lists(step, min_size=1, max_size=5)),
    min_size=1,
    max_size=3,
)

TALLY = {"sequences": 0, "changes": 0, "undos": 0, "differences": 0}


def _pick(items: list[str], i: int) -> str | None:
    return items[i % len(items)] if items else None


def _ids(rg: Recollect, scope: str, what: str) -> list[str]:
    stats = rg.db.read("testing/scope_ids", scope_id=scope)[0]
    return sorted(stats[what] or [])


def _write(rg: Recollect, scope: str, kind: str, i: int, j: int) -> None:
    entries = _ids(rg, scope, "entries")
    if kind == "remember":
        rg.remember(TEXTS[i % len(TEXTS)], scope_id=scope, owner_id="kai")
    elif kind == "connect" and len(entries) >= 2:
        a, b = _pick(entries, i), _pick(entries, j)
        if a and b and a != b:
            rg.connect(a, b, "related_to", reason="property test", scope_id=scope)
    elif kind == "index":
        rg.entities.index_entries(scope, rg.documents.pipeline)
    elif kind == "ingest":
        title, text = DOCS[i % len(DOCS)]
        rg.documents.ingest(title, text, owner_id="kai", scope_id=scope)
    elif kind == "rate" and entries:
        mem = rg.memories.in_scope(scope, "agent")
        mem.feedback([{"id": _pick(entries, i), "useful": True, "confidence": 7}])


def _change(rg: Recollect, scope: str, kind: str, i: int, j: int) -> str | None:
    """Make one destructive change; the id of its operation (None when it did not apply)."""
    entries = _ids(rg, scope, "current")
    op: str | None = None
    if kind == "forget" and _ids(rg, scope, "entries"):
        rg.forget(_pick(_ids(rg, scope, "entries"), i) or "", scope_id=scope)
        op = rg.operations(scope, limit=1)[0].id
    elif kind == "soft_delete" and entries:
        ids = sorted({_pick(entries, i) or "", _pick(entries, j) or ""})
        op = rg.knowledge.soft_delete(ids, scope_id=scope, reason="test")["operation_id"]
    elif kind == "feedback_delete" and entries:
        # one low-confidence "not useful" soft-deletes (the threshold set to 1)
        mem = Memories(
            rg.knowledge,
            rg.searcher,
            rg.settings.model_copy(update={"soft_delete_after": 1}),
            scope_id=scope,
        )
        rate = [{"id": _pick(entries, i), "useful": False, "confidence": 1}]
        op = mem.feedback(rate)["operation_id"]
    elif kind == "supersede" and len(entries) >= 2:
        old, new = _pick(entries, i), _pick(entries, j)
        if old and new and old != new:
            op = rg.supersede_entry(old, new, reason="test", scope_id=scope).operation_id
    elif kind == "invalidate":
        word = ("webpack", "postgresql", "grafana", "nothing-like-this")[i % 4]
        # a replacement is written even when nothing matches (a plain new entry, no operation):
        # given only when the word is there, so that every change here has its operation
        there = any(word in t for t in _ids(rg, scope, "texts"))
        replacement = "We build with vite." if j % 2 and there else None
        op = rg.invalidate(scope, word, reason="test", replacement=replacement).operation_id
    elif kind in ("resolve", "resolve_forget"):
        conflicts = rg.conflicts(scope)
        if conflicts:
            c = conflicts[i % len(conflicts)]
            keep = c.source.id if j % 2 else c.target.id
            op = rg.resolve(
                scope, c.source.id, c.target.id, keep=keep, forget_loser=kind == "resolve_forget"
            ).operation_id
    elif kind == "merge":
        ents = _ids(rg, scope, "entities")
        if len(ents) >= 2:
            a, b = _pick(ents, i), _pick(ents, j)
            if a and b and a != b:
                op = rg.entities.merge(a, b, scope_id=scope)
    elif kind == "doc_forget":
        docs = _ids(rg, scope, "documents")
        if docs:
            op = rg.documents.forget(_pick(docs, i) or "", scope_id=scope)["operation_id"]
    elif kind == "consolidate":
        out = rg.consolidate(scope, dry_run=False)
        op = out.operation_id
    return op


def _undo(rg: Recollect, scope: str, done: list[tuple[str, dict[str, Any], str]]) -> None:
    op, before, label = done.pop()
    rg.undo(op, scope_id=scope)
    TALLY["undos"] += 1
    diff = difference(before, snapshot(rg, scope))
    if diff:
        TALLY["differences"] += 1
    assert diff == {}, f"undo of {label} left a difference: {diff}"


def _sequence(rg: Recollect, plan: list[tuple[list[Any], list[Any]]]) -> None:
    scope = f"prop-{uuid.uuid4().hex[:12]}"
    TALLY["sequences"] += 1
    for writes, steps in plan:
        for kind, i, j in writes:
            _write(rg, scope, kind, i, j)
        done: list[tuple[str, dict[str, Any], str]] = []
        for kind, i, j in steps:
            if kind == "undo":
                if done:
                    _undo(rg, scope, done)
                continue
            before = snapshot(rg, scope)
            try:
                op = _change(rg, scope, kind, i, j)
            except RecollectError:  # refused (e.g. nothing to supersede): nothing may change
                op = None
            if op is None:  # nothing matched: nothing may have changed
                assert difference(before, snapshot(rg, scope)) == {}, f"{kind}({i}, {j})"
                continue
            TALLY["changes"] += 1
            done.append((op, before, f"{kind}({i}, {j})"))
        while done:
            _undo(rg, scope, done)


def _report(capsys: pytest.CaptureFixture[str], name: str) -> None:
    with capsys.disabled():
        print(
            f"\n[{name}] {TALLY['sequences']} random sequences, {TALLY['changes']} destructive "
            f"changes, {TALLY['undos']} undos, {TALLY['differences']} left a difference"
        )


def _run(rg: Recollect, examples: int) -> Callable[[], None]:
    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=False,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        database=None,
    )
    @given(plan=rounds)
    def check(plan: list[tuple[list[Any], list[Any]]]) -> None:
        _sequence(rg, plan)

    return check


def test_every_undo_restores_the_exact_snapshot(
    rg: Recollect, capsys: pytest.CaptureFixture[str]
) -> None:
    for k in TALLY:
        TALLY[k] = 0
    _run(rg, 12)()
    _report(capsys, "undo property")
    assert TALLY["differences"] == 0 and TALLY["undos"] > 0


@pytest.mark.heavy
def test_every_undo_restores_the_exact_snapshot_heavy(
    rg: Recollect, capsys: pytest.CaptureFixture[str]
) -> None:
    for k in TALLY:
        TALLY[k] = 0
    _run(rg, 150)()
    _report(capsys, "undo property, heavy")
    assert TALLY["differences"] == 0 and TALLY["undos"] > 0
