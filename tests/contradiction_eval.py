"""Precision and recall of the contradiction rules on a labelled set of statement pairs.

Each pair is ``{"a": existing, "b": new, "label": "conflict"|"none", "type": ...}`` (the newer
files add ``slot``, ``kind`` and ``register``). A prediction is correct when its type equals the
label's type; a predicted conflict on a ``none`` pair, or with another type, is a false positive
(and, for a conflict pair, also a miss). Detection (any conflict on a conflict pair) is reported
apart from type accuracy.

The pairs of every file are split once, by a stable hash of their id, into a ``dev`` half (rules
may be tuned on it) and a ``heldout`` half (never tuned on; reported beside dev).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from recollect_graph.nlp.claims import ClaimExtractor
from recollect_graph.nlp.conflicts import PRIORITY, best, judge

DATA = Path(__file__).resolve().parent / "data"
#: Every labelled pair file (see docs/claims.md for how each was written).
PAIR_FILES = (
    "contradiction_pairs.jsonl",
    "contradiction_pairs_holdout.jsonl",
    "contradiction_pairs_general.jsonl",
    "contradiction_pairs_longmemeval.jsonl",
)


def load_pairs(path: Path) -> list[dict[str, Any]]:
    """Read a JSON Lines file of labelled pairs."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def half(pair_id: str) -> str:
    """``dev`` or ``heldout``: a fixed split by the SHA-1 of the pair id."""
    return "dev" if hashlib.sha1(pair_id.encode()).digest()[0] % 2 == 0 else "heldout"


def load_split(name: str) -> list[dict[str, Any]]:
    """All labelled pairs of one half (``dev`` or ``heldout``), every file together."""
    pairs = [p for f in PAIR_FILES for p in load_pairs(DATA / f)]
    return [p for p in pairs if half(p["id"]) == name]


def predict(extractor: ClaimExtractor, a: str, b: str) -> str | None:
    """The conflict type the rules give for new statement ``b`` against existing ``a``."""
    ca, cb = extractor.extract_many([a, b])
    verdicts = [v for n in cb for o in ca if (v := judge(n, o)) is not None]
    found = best(verdicts)
    return found.type if found else None


def evaluate(extractor: ClaimExtractor, pairs: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Per-type and overall precision/recall, detection, breakdowns, and the wrong pairs."""
    stats = {t: {"tp": 0, "fp": 0, "fn": 0} for t in PRIORITY}
    detect = {"tp": 0, "fp": 0, "fn": 0}
    by: dict[str, dict[str, dict[str, int]]] = {"slot": {}, "kind": {}, "register": {}}
    errors = []
    n = 0
    for p in pairs:
        n += 1
        got = predict(extractor, p["a"], p["b"])
        want = p["type"] if p["label"] == "conflict" else None
        if got and want:
            detect["tp"] += 1
        elif got:
            detect["fp"] += 1
        elif want:
            detect["fn"] += 1
        for dim, cells in by.items():
            cell = cells.setdefault(str(p.get(dim) or "-"), {"n": 0, "right": 0})
            cell["n"] += 1
            cell["right"] += int(got == want)
        if got == want:
            if got:
                stats[got]["tp"] += 1
            continue
        errors.append({"id": p["id"], "want": want, "got": got, "a": p["a"], "b": p["b"]})
        if got:
            stats[got]["fp"] += 1
        if want:
            stats[want]["fn"] += 1
    report: dict[str, Any] = {"pairs": n, "types": {}}
    for t, s in stats.items():
        report["types"][t] = _pr(s)
    total = {k: sum(s[k] for s in stats.values()) for k in ("tp", "fp", "fn")}
    report["overall"] = _pr(total)
    report["detection"] = _pr(detect)
    report["type_accuracy"] = round(total["tp"] / detect["tp"], 3) if detect["tp"] else 1.0
    report["by"] = {
        dim: {k: {**v, "accuracy": round(v["right"] / v["n"], 3)} for k, v in sorted(c.items())}
        for dim, c in by.items()
    }
    report["errors"] = errors
    return report


def _pr(s: Mapping[str, int]) -> dict[str, float | int]:
    p = s["tp"] / (s["tp"] + s["fp"]) if s["tp"] + s["fp"] else 1.0
    r = s["tp"] / (s["tp"] + s["fn"]) if s["tp"] + s["fn"] else 1.0
    return {**s, "precision": round(p, 3), "recall": round(r, 3)}
