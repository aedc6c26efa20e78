"""The concurrency mix: many workers remembering, connecting, rating, superseding, searching and
adding turns in one scope. Threads call :func:`run_ops` directly; processes run it through
``tests.reliability.worker``. :func:`prepare` writes the shared starting point;
:func:`merge` adds up the workers' tallies, from which the test knows what the graph must hold.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from recollect_graph import Recollect

#: Operation -> weight in the mix.
MIX = {
    "remember_same": 15,
    "remember_new": 15,
    "connect": 20,
    "feedback": 15,
    "fetch": 5,
    "supersede": 10,
    "search": 10,
    "turns": 10,
}
#: The heavy variant's mix: the same kinds, weighted towards the cheap writes that contend on
#: the same nodes (an embedding costs ~10-20x a graph write on a 2-core machine).
HEAVY_MIX = {
    "remember_same": 10,
    "remember_new": 5,
    "connect": 30,
    "feedback": 20,
    "fetch": 10,
    "supersede": 5,
    "search": 10,
    "turns": 10,
}
SHARED_FACTS = [
    f"Shared fact {i}: the cache TTL of service {i} is {30 + i} seconds" for i in range(8)
]
RELATIONS = ["supports", "related_to", "depends_on"]


def prepare(rg: Recollect, scope: str) -> dict[str, Any]:
    """The shared starting point: nodes to connect, a memory to rate, policies to supersede."""
    nodes = rg.remember_many(
        [{"content": f"Component {i} of the billing pipeline talks to Kafka"} for i in range(8)],
        scope_id=scope,
        owner_id="setup",
    )
    target = rg.remember(
        "Cache TTL rule: every service caches for at most a minute",
        scope_id=scope,
        owner_id="setup",
        title="Cache TTL rule",
    )
    policies = rg.remember_many(
        [{"content": f"Deploy policy {i}: deploys need {i + 1} approvals"} for i in range(4)],
        scope_id=scope,
        owner_id="setup",
    )
    return {
        "scope": scope,
        "nodes": [e.id for e in nodes],
        "target": target.id,
        "policies": [e.id for e in policies],
    }


def run_ops(rg: Recollect, job: dict[str, Any]) -> dict[str, Any]:
    """Run ``job["ops"]`` operations of the mix as worker ``job["worker"]``; returns a tally.

    The tally counts each kind done, the feedback given to the target, how often each entry was
    returned by a search or fetch (what ``access_count`` records), and any error.
    """
    scope, w, n = job["scope"], int(job["worker"]), int(job["ops"])
    rnd = random.Random(1000 + w)
    mem = rg.memories.in_scope(scope, f"w{w}")
    mix: dict[str, int] = job.get("mix") or MIX
    kinds, weights = list(mix), list(mix.values())
    done: Counter[str] = Counter()
    touched: Counter[str] = Counter()
    errors: list[str] = []
    feedback = {"n": 0, "useful": 0}
    session = job.get("session") or f"chat-w{w}"
    for j in range(n):
        kind = rnd.choices(kinds, weights)[0]
        try:
            if kind == "remember_same":
                rg.remember(rnd.choice(SHARED_FACTS), scope_id=scope, owner_id=f"w{w}")
            elif kind == "remember_new":
                rg.remember(
                    f"Worker {w} observation {j}: queue depth peaked at {rnd.randint(1, 999)}",
                    scope_id=scope,
                    owner_id=f"w{w}",
                    source_id=f"w{w}-obs-{j}",
                )
            elif kind == "connect":
                a, b = rnd.sample(job["nodes"], 2)
                rg.connect(a, b, rnd.choice(RELATIONS), scope_id=scope)
            elif kind == "feedback":
                useful = rnd.random() < 0.8
                out = mem.feedback([{"id": job["target"], "useful": useful, "confidence": 9}])
                assert [m["id"] for m in out["updated_memories"]] == [job["target"]], out
                feedback["n"] += 1
                feedback["useful"] += int(useful)
                touched[job["target"]] += 1
            elif kind == "fetch":
                got = mem.search(ids=[job["target"], *job["nodes"][:2]])
                touched.update(r["memory"]["id"] for r in got["results"])
            elif kind == "supersede":
                new = rg.remember(
                    f"Worker {w} revision {j}: deploys need a green canary first",
                    scope_id=scope,
                    owner_id=f"w{w}",
                    source_id=f"w{w}-rev-{j}",
                )
                rg.supersede_entry(
                    rnd.choice(job["policies"]), new.id, reason=f"w{w} rev {j}", scope_id=scope
                )
            elif kind == "search":
                hits = rg.search("how long do services cache?", scope_id=scope, limit=5)
                touched.update(h.entry.id for h in hits)
            elif kind == "turns":
                rg.sessions.add_turns(
                    session,
                    [{"id": f"w{w}-t{j}", "speaker": "Ana", "text": f"worker {w} says {j}"}],
                    scope_id=scope,
                    owner_id=f"w{w}",
                    index=False,
                )
            done[kind] += 1
        except Exception as e:  # every failure is a finding: the test asserts there are none
            errors.append(f"{kind}: {type(e).__name__}: {e}")
    return {
        "done": dict(done),
        "touched": dict(touched),
        "feedback": feedback,
        "errors": errors,
    }


def merge(tallies: list[dict[str, Any]]) -> dict[str, Any]:
    """Add up the workers' tallies."""
    done: Counter[str] = Counter()
    touched: Counter[str] = Counter()
    fb = {"n": 0, "useful": 0}
    errors: list[str] = []
    for t in tallies:
        done.update(t["done"])
        touched.update(t["touched"])
        fb["n"] += t["feedback"]["n"]
        fb["useful"] += t["feedback"]["useful"]
        errors += t["errors"]
    return {"done": dict(done), "touched": dict(touched), "feedback": fb, "errors": errors}
