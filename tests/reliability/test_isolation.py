"""Scope isolation, property-based: given two scopes with generated content, nothing done in one
ever returns, links to, supersedes, rates, suggests, recalls or deletes anything of the other,
and the other's ids behave as not found. The other scope's whole dump (every node and edge,
properties included) is the same before and after.
"""

from __future__ import annotations

import contextlib
import uuid
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recollect_graph import Recollect
from recollect_graph.errors import (
    EntryNotFound,
    InvalidInput,
    NothingToSupersede,
    RecollectError,
    SessionNotFound,
)

TOOLS = ["postgres", "redis", "kafka", "vite", "webpack", "terraform", "grafana", "nginx"]
THINGS = ["billing service", "build", "job queue", "dashboard", "deploy pipeline", "cache"]

statement = st.builds(
    lambda thing, tool, n: f"The {thing} uses {tool} since release {n}",
    st.sampled_from(THINGS),
    st.sampled_from(TOOLS),
    st.integers(1, 99),
)
free_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=60
).filter(lambda s: s.strip())
contents = st.lists(statement | free_text, min_size=2, max_size=4, unique=True)
queries = st.sampled_from(TOOLS + THINGS) | statement | free_text


@dataclass
class Side:
    """What one scope holds (ids to aim at from the other scope)."""

    scope: str
    cwd: str
    entries: list[str] = field(default_factory=list)
    sessions: list[str] = field(default_factory=list)
    texts: set[str] = field(default_factory=set)
    op: str = ""


def populate(rg: Recollect, tag: str) -> Side:
    """A scope with entries, an edge, a contradiction, sessions (one id shared by both scopes),
    a fork and an undoable operation."""
    side = Side(scope=f"iso-{tag}-{uuid.uuid4().hex[:8]}", cwd=f"/src/{tag}-{uuid.uuid4().hex[:6]}")
    base = [f"The {tag} job queue uses postgres", "The build uses webpack"]
    entries = rg.remember_many([{"content": c} for c in base], scope_id=side.scope, owner_id=tag)
    side.entries = [e.id for e in entries]
    side.texts = set(base)
    turns = [{"id": "t1", "speaker": "Ana", "text": f"Let's move the {tag} build to vite"},
             {"id": "t2", "speaker": "assistant", "text": "Done: the build uses vite now"}]  # fmt: skip
    for sid in ("same-id", f"only-{tag}"):
        rg.sessions.add_turns(sid, turns, scope_id=side.scope, owner_id=tag, cwd=side.cwd)
    rg.sessions.add_turns(f"fork-{tag}", turns[:1], scope_id=side.scope, owner_id=tag,
                          cwd=side.cwd, parent_session_id=f"only-{tag}")  # fmt: skip
    side.sessions = ["same-id", f"only-{tag}", f"fork-{tag}"]
    side.texts |= {t["text"] for t in turns}
    rg.connect(side.entries[0], side.entries[1], "supports", scope_id=side.scope)
    side.op = rg.memories.in_scope(side.scope, tag).delete([side.entries[0]])["operation_id"]
    rg.memories.in_scope(side.scope, tag).restore([side.entries[0]])
    return side


def add_generated(rg: Recollect, side: Side, texts: list[str]) -> None:
    """The example's generated content, as titled memories of the scope."""
    tag = side.scope.split("-")[1]
    items = [{"content": c, "title": f"{tag} {uuid.uuid4().hex[:8]}"} for c in texts]
    side.entries += [e.id for e in rg.remember_many(items, scope_id=side.scope, owner_id=tag)]
    side.texts |= set(texts)


@pytest.fixture(scope="module")
def sides(rg: Recollect) -> tuple[Side, Side]:
    return populate(rg, "aa"), populate(rg, "bb")


def dump(rg: Recollect, scope: str) -> list[Any]:
    """Every node of a scope and every edge touching one, properties and all (no vectors)."""
    nodes = rg.query(
        "MATCH (n) WHERE n.scope_id = $s RETURN labels(n) AS l, n {.*, embedding: null} AS p",
        {"s": scope},
    )
    edges = rg.query(
        "MATCH (a)-[r]->(b) WHERE a.scope_id = $s OR b.scope_id = $s "
        "RETURN a.id AS a, type(r) AS t, b.id AS b, properties(r) AS p",
        {"s": scope},
    )
    return sorted(map(repr, nodes)) + sorted(map(repr, edges))


def scopes_of(rg: Recollect, ids: list[str]) -> set[str]:
    """The scopes the entries with these ids live in (looked up across every scope)."""
    rows = rg.query("MATCH (e:Entry) WHERE e.id IN $ids RETURN e.scope_id AS s", {"ids": ids})
    return {r["s"] for r in rows}


def reads_stay_home(rg: Recollect, me: Side, other: Side, query: str) -> None:
    s = me.scope
    for kw in ({}, {"include_superseded": True, "include_deleted": True, "hops": 3}):
        assert {h.entry.scope_id for h in rg.search(query, scope_id=s, **kw)} <= {s}
    assert {e.scope_id for e in rg.recent(s, limit=100)} <= {s}
    assert {e.id for e in rg.get_many(me.entries + other.entries, scope_id=s)} <= set(me.entries)
    for x in other.entries:
        with pytest.raises(EntryNotFound):
            rg.get(x, scope_id=s)
    mem = rg.memories.in_scope(s, "probe")
    assert {r["memory"]["namespace"] for r in mem.search(query)["results"]} <= {s}
    assert mem.search(ids=other.entries)["results"] == []
    for mine in (me.entries[0], me.entries[-1]):
        cands = mem.suggest_links(mine)["candidates"]
        assert scopes_of(rg, [c["target_id"] for c in cands]) <= {s}
    with pytest.raises(RecollectError):
        mem.suggest_links(other.entries[0])
    for c in rg.check_contradiction("The build uses vite", scope_id=s).conflicts:
        assert c.existing.scope_id == s
    for row in rg.conflicts(s):
        assert row.source.scope_id == s and row.target.scope_id == s
    listed = rg.sessions.list(s)
    assert {x["id"] for x in listed} <= set(me.sessions)
    assert all(x.get("cwd") in (None, me.cwd) for x in listed)
    assert {t["text"] for t in rg.sessions.turns("same-id", scope_id=s)} <= me.texts
    assert rg.sessions.get("same-id", scope_id=s).get("cwd") == me.cwd
    recall = rg.recall(query, scope_id=s)
    assert {c.session_id for c in recall.candidates} <= set(me.sessions)
    assert all(c.cwd in (None, me.cwd) for c in recall.candidates)
    assert other.cwd not in recall.prose
    assert all(other.cwd not in o for p in recall.probes for o in p.options)
    assert {o.scope_id for o in rg.operations(s)} <= {s}
    for sid in (f"only-{other.scope.split('-')[1]}", f"fork-{other.scope.split('-')[1]}"):
        with pytest.raises(SessionNotFound):
            rg.sessions.get(sid, scope_id=s)
        with pytest.raises(SessionNotFound):
            rg.fork_parent(sid, scope_id=s)


def writes_stay_home(rg: Recollect, me: Side, other: Side) -> None:
    s, x, y = me.scope, other.entries[0], other.entries[1]
    mine = me.entries[0]
    with pytest.raises(EntryNotFound):
        rg.forget(x, scope_id=s)
    with pytest.raises(EntryNotFound):
        rg.connect(x, y, "supports", scope_id=s)
    with pytest.raises(InvalidInput):  # EntryNotFound or ScopeViolation
        rg.connect(mine, x, "supports", scope_id=s)
    with pytest.raises(InvalidInput):  # another scope's id is not found in this scope
        rg.supersede_entry(x, mine, scope_id=s)
    with pytest.raises(InvalidInput):
        rg.supersede_entry(mine, x, scope_id=s)
    mem = rg.memories.in_scope(s, "probe")
    fb = mem.feedback([{"id": x, "useful": False, "confidence": 1}])
    assert fb["updated_memories"] == [] and len(fb["errors"]) == 1
    assert mem.delete([x])["not_found"] == [x]
    assert mem.restore([x])["not_found"] == [x]
    assert rg.outcome([x, y], "bad", scope_id=s) == []
    with pytest.raises(InvalidInput):
        rg.undo(other.op, scope_id=s)
    with pytest.raises(SessionNotFound):
        rg.sessions.handoff(f"only-{other.scope.split('-')[1]}", scope_id=s, what="x")
    # retires this scope's webpack statement only (from the second example on, nothing is left
    # to retire: NothingToSupersede, and nothing of the other scope changes either way)
    with contextlib.suppress(NothingToSupersede):
        rg.supersede(s, "build", "uses", "vite")
    mem.sweep(min_score=0.0)
    pending = mem.pending_suggestions(limit=100)["suggestions"]
    assert all(p["scope_id"] == s for p in pending)
    assert scopes_of(rg, [p[k] for p in pending for k in ("from_id", "to_id")]) <= {s}


@settings(
    max_examples=10,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(a=contents, b=contents, query=queries, a_first=st.booleans())
def test_nothing_crosses_between_two_scopes(
    rg: Recollect, sides: tuple[Side, Side], a: list[str], b: list[str], query: str, a_first: bool
) -> None:
    one, two = sides
    add_generated(rg, one, a)
    add_generated(rg, two, b)
    me, other = (one, two) if a_first else (two, one)
    before = dump(rg, other.scope)
    reads_stay_home(rg, me, other, query)
    writes_stay_home(rg, me, other)
    assert dump(rg, other.scope) == before
    assert rg.check_invariants(me.scope)["cross_scope_edges"] == []
