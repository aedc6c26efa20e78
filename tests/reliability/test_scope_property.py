"""Every id-taking call resolves its ids within one scope (issue 19 item 3), property-tested.

Two scopes, ``home`` and ``away``, each with entries, a session, a document and a logged
operation. Hypothesis draws an id-taking call, an id of ``away`` and the scope the call is made
with (``home``, none at all, or blank). Whatever it draws: the call refuses (not found, or "a
scope is required"), never returns or prints anything of ``away``, and ``away`` is unchanged
afterwards, node for node and property for property. Bounded in the default suite; the heavy
variant (``make test-reliability``) tries many more examples.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recollect_graph import Recollect
from recollect_graph.errors import InvalidInput

SECRET = "The away scope's vault key is QX-99-ALPHA"


@dataclass(frozen=True)
class Scope:
    name: str
    entries: list[str]
    operation: str
    session: str
    document: str


def _fill(rg: Recollect, name: str) -> Scope:
    es = rg.remember_many(
        [
            {"content": f"{SECRET} ({name})"},
            {"content": f"Deploys of {name} need two approvals"},
            {"content": f"The {name} team moved standup to 9:30"},
        ],
        scope_id=name,
        owner_id="kai",
    )
    gone = rg.remember(f"A note of {name} forgotten at set-up", scope_id=name, owner_id="kai")
    op = rg.forget(gone.id, scope_id=name)
    ops = rg.operations(name, limit=5)
    op_id = next(o.id for o in ops if op.id in o.entry_ids)
    # the session id names no scope: an error echoing the id asked for reveals nothing of it
    session = f"chat-{uuid.uuid5(uuid.NAMESPACE_URL, name).hex[:8]}"
    rg.sessions.add_turns(
        session,
        [{"id": "t1", "speaker": "user", "text": f"What did {name} decide about the cache?"}],
        scope_id=name,
        owner_id="kai",
    )
    doc = rg.documents.ingest(
        name, f"# {name}\n\n{SECRET} in a document.", owner_id="kai", scope_id=name
    )
    return Scope(name, [e.id for e in es], op_id, session, doc.document_id)


@pytest.fixture(scope="module")
def two_scopes(rg: Recollect) -> tuple[Scope, Scope]:
    tag = uuid.uuid4().hex[:8]
    return _fill(rg, f"home-{tag}"), _fill(rg, f"away-{tag}")


def snapshot(rg: Recollect, scope: str) -> str:
    """Every node of a scope with its properties and relationships (vectors by presence)."""
    rows = rg.query(
        "MATCH (n) WHERE n.scope_id = $s "
        "OPTIONAL MATCH (n)-[r]-(m) "
        "WITH n, collect([type(r), startNode(r) = n, m.id, properties(r)]) AS rels "
        "RETURN labels(n) AS l, properties(n) AS p, rels ORDER BY n.id",
        {"s": scope},
    )
    out = []
    for r in rows:
        p = {k: v for k, v in r["p"].items() if k != "embedding"}
        p["has_embedding"] = "embedding" in r["p"]
        out.append([sorted(r["l"]), p, sorted(r["rels"], key=repr)])
    return json.dumps(out, default=str, sort_keys=True)


Call = Callable[[Recollect, Scope, Any], Any]

#: Every id-taking call of the API, given an id of the away scope and the scope to call with.
CALLS: dict[str, Call] = {
    "get": lambda rg, a, s: rg.get(a.entries[0], scope_id=s),
    "get_many": lambda rg, a, s: rg.get_many(a.entries, scope_id=s),
    "forget": lambda rg, a, s: rg.forget(a.entries[1], scope_id=s),
    "connect": lambda rg, a, s: rg.connect(a.entries[0], a.entries[1], "supports", scope_id=s),
    "outcome": lambda rg, a, s: rg.outcome(a.entries, "bad", scope_id=s),
    "undo": lambda rg, a, s: rg.undo(a.operation, scope_id=s),
    "supersede_entry": lambda rg, a, s: rg.supersede_entry(a.entries[0], a.entries[2], scope_id=s),
    "show": lambda rg, a, s: rg.show(a.entries[0], scope_id=s),
    "show_session": lambda rg, a, s: rg.show(a.session, scope_id=s),
    "sessions.get": lambda rg, a, s: rg.sessions.get(a.session, scope_id=s),
    "sessions.turns": lambda rg, a, s: rg.sessions.turns(a.session, scope_id=s),
    "fork_parent": lambda rg, a, s: rg.fork_parent(a.session, scope_id=s),
    "documents.get": lambda rg, a, s: rg.documents.get(a.document, scope_id=s),
    "documents.forget": lambda rg, a, s: rg.documents.forget(a.document, scope_id=s),
    "memories.delete": lambda rg, a, s: rg.memories.in_scope(s or "shared").delete(a.entries),
    "memories.restore": lambda rg, a, s: rg.memories.in_scope(s or "shared").restore(a.entries),
    "memories.feedback": lambda rg, a, s: rg.memories.in_scope(s or "shared").feedback(
        [{"id": a.entries[0], "useful": False, "confidence": 5}]
    ),
}


def _empty(out: Any) -> bool:
    """A result that found nothing: no entries, no updates, only not-found lists."""
    if out is None or out == [] or out == {}:
        return True
    if isinstance(out, dict):
        keep = {k: v for k, v in out.items() if v and k not in ("not_found", "errors")}
        return not keep
    return False


HEAVY = int(os.environ.get("RECOLLECT_HEAVY_OPS", "0"))


@settings(
    max_examples=max(40, HEAVY),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)
@given(
    name=st.sampled_from(sorted(CALLS)),
    how=st.sampled_from(["home", "none", "blank"]),
)
def test_an_id_of_another_scope_is_never_read_or_changed(
    rg: Recollect, two_scopes: tuple[Scope, Scope], name: str, how: str
) -> None:
    home, away = two_scopes
    scope = {"home": home.name, "none": None, "blank": "  "}[how]
    before = snapshot(rg, away.name)
    try:
        out = CALLS[name](rg, away, scope)
    except InvalidInput as e:  # NotFound is an InvalidInput; so is "scope_id is required"
        assert away.name not in str(e) and "QX-99" not in str(e)
    else:
        assert _empty(out), (name, how, out)
        assert "QX-99" not in repr(out)
    assert snapshot(rg, away.name) == before, (name, how)
