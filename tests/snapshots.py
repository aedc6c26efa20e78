"""Exact snapshots of a scope, for the undo tests: compare before and after node by node.

A snapshot holds every node of the scope (labels and every property; vectors by a hash of their
values) and every relationship touching one (type, both ends, properties), as sorted JSON lines,
so two snapshots are equal exactly when the scope's graph is. Left out, as documented in
docs/undo.md: the ``Operation`` nodes themselves (the audit log grows with every change and its
undo).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any

from recollect_graph import Recollect
from recollect_graph.services.kernel.times import native

VECTOR_KEYS = ("embedding",)


def _value(k: str, v: Any) -> Any:
    if k in VECTOR_KEYS and isinstance(v, list):
        return "sha256:" + hashlib.sha256(json.dumps([float(x) for x in v]).encode()).hexdigest()
    v = native(v)
    if hasattr(v, "isoformat"):
        return v.isoformat()
    if isinstance(v, list):
        return [_value("", x) for x in v]
    return v


def _props(p: dict[str, Any]) -> dict[str, Any]:
    return {k: _value(k, v) for k, v in sorted(p.items())}


def snapshot(rg: Recollect, scope_id: str) -> dict[str, Any]:
    """The scope's graph as comparable data: ``nodes`` and ``rels`` (sorted JSON lines), counts."""
    row = rg.db.read("testing/scope_dump", scope_id=scope_id)[0]
    nodes = sorted(
        json.dumps({"labels": sorted(n["labels"]), "props": _props(n["props"])}, sort_keys=True)
        for n in row["nodes"]
    )
    rels = sorted(
        json.dumps(
            {
                "type": r["type"],
                "start": [sorted(r["start"][0]), r["start"][1]],
                "end": [sorted(r["end"][0]), r["end"][1]],
                "props": _props(r["props"]),
            },
            sort_keys=True,
        )
        for r in row["rels"]
    )
    labels = Counter(label for n in row["nodes"] for label in n["labels"])
    types = Counter(r["type"] for r in row["rels"])
    return {"nodes": nodes, "rels": rels, "labels": dict(labels), "types": dict(types)}


def difference(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """What differs between two snapshots (empty when they are identical)."""
    out: dict[str, Any] = {}
    for part in ("nodes", "rels"):
        ca, cb = Counter(a[part]), Counter(b[part])
        only_a, only_b = list((ca - cb).elements()), list((cb - ca).elements())
        if only_a or only_b:
            out[part] = {"before_only": only_a[:5], "after_only": only_b[:5]}
    return out
