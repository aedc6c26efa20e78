"""Precision and recall of the contradiction rules on a labelled set of statement pairs.

Each pair is ``{"a": existing, "b": new, "label": "conflict"|"none", "type": ...}``. A prediction
is correct when its type equals the label's type; a predicted conflict on a ``none`` pair, or with
another type, is a false positive (and, for a conflict pair, also a miss).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from recollect_graph.nlp.claims import ClaimExtractor
from recollect_graph.nlp.conflicts import PRIORITY, best, judge


def load_pairs(path: Path) -> list[dict[str, Any]]:
    """Read a JSON Lines file of labelled pairs."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def predict(extractor: ClaimExtractor, a: str, b: str) -> str | None:
    """The conflict type the rules give for new statement ``b`` against existing ``a``."""
    ca, cb = extractor.extract_many([a, b])
    verdicts = [v for n in cb for o in ca if (v := judge(n, o)) is not None]
    found = best(verdicts)
    return found.type if found else None


def evaluate(extractor: ClaimExtractor, pairs: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Per-type and overall precision/recall, plus the misclassified pairs."""
    stats = {t: {"tp": 0, "fp": 0, "fn": 0} for t in PRIORITY}
    errors = []
    for p in pairs:
        got = predict(extractor, p["a"], p["b"])
        want = p["type"] if p["label"] == "conflict" else None
        if got == want:
            if got:
                stats[got]["tp"] += 1
            continue
        errors.append({"id": p["id"], "want": want, "got": got, "a": p["a"], "b": p["b"]})
        if got:
            stats[got]["fp"] += 1
        if want:
            stats[want]["fn"] += 1
    report: dict[str, Any] = {"types": {}}
    for t, s in stats.items():
        report["types"][t] = _pr(s)
    total = {k: sum(s[k] for s in stats.values()) for k in ("tp", "fp", "fn")}
    report["overall"] = _pr(total)
    report["errors"] = errors
    return report


def _pr(s: Mapping[str, int]) -> dict[str, float | int]:
    p = s["tp"] / (s["tp"] + s["fp"]) if s["tp"] + s["fp"] else 1.0
    r = s["tp"] / (s["tp"] + s["fn"]) if s["tp"] + s["fn"] else 1.0
    return {**s, "precision": round(p, 3), "recall": round(r, 3)}
