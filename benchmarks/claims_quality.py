"""Claim quality: contradiction precision/recall per conflict type, slot, kind and register.

Reads the labelled pairs of ``tests/data/contradiction_pairs*.jsonl`` (461 pairs, split by a hash
of the pair id into a dev half, which rules may be tuned on, and a held-out half, which they are
never tuned on) and reports, for each half: overall precision/recall, detection (any conflict on a
conflict pair), conflict-type accuracy, per-type P/R and accuracy per slot, kind (hard-negative
kinds included) and register; then the cost of one check on the CPU side (claim extraction of
both texts and the rules, p50/p95 in ms). With ``--against PATH`` (a checkout of another revision,
e.g. ``/work/main``) it also measures claim-extraction throughput of both revisions side by side,
alternating, in one run.

It also reports entry-type classification accuracy on the classifier's examples
(``recollect_graph/nlp/data/type_examples.jsonl``, 162 sentences, every type) and on 80 fresh
sentences (``tests/data/classification_sentences_fresh.jsonl``). No database is needed.
Entity/relation P/R on labelled paragraphs is ``benchmarks/entity_quality.py``.

Run: ``PYTHONPATH=. .venv/bin/python benchmarks/claims_quality.py [--against ../main]
[--out benchmarks/results/claims_quality.json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from recollect_graph.nlp.claims import CLAIM_EXCLUDE, ClaimExtractor
from recollect_graph.nlp.spacy_loader import SpacyLoader
from tests.contradiction_eval import PAIR_FILES, evaluate, load_split, predict
from tests.contradiction_eval import half as half_of

_THROUGHPUT = """
import json, sys, time
from recollect_graph.nlp.claims import CLAIM_EXCLUDE, ClaimExtractor
from recollect_graph.nlp.spacy_loader import SpacyLoader
texts = json.load(open(sys.argv[1]))
ex = ClaimExtractor(SpacyLoader(exclude=CLAIM_EXCLUDE))
ex.extract_many(texts[:50])
t = time.perf_counter()
ex.extract_many(texts)
print(len(texts) / (time.perf_counter() - t))
"""


def pct(xs: list[float], q: float) -> float:
    """The q-quantile of xs (nearest rank)."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


def check_cost(extractor: ClaimExtractor, pairs: list[dict[str, Any]]) -> dict[str, float]:
    """Milliseconds per check (extract both texts, judge every claim pair)."""
    times = []
    for p in pairs:
        t = time.perf_counter()
        predict(extractor, p["a"], p["b"])
        times.append((time.perf_counter() - t) * 1000)
    return {"n": len(times), "p50_ms": round(pct(times, 0.5), 2),
            "p95_ms": round(pct(times, 0.95), 2)}  # fmt: skip


def throughput(against: Path, texts: list[str], rounds: int = 3) -> dict[str, Any]:
    """Texts per second of claim extraction, this tree and ``against``, alternating."""
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(texts, f)
    rates: dict[str, list[float]] = {"this": [], "against": []}
    for _ in range(rounds):
        for name, path in (("this", ROOT), ("against", against)):
            env = {**os.environ, "PYTHONPATH": str(path)}
            out = subprocess.run([sys.executable, "-c", _THROUGHPUT, f.name], env=env,
                                 capture_output=True, text=True, check=True)  # fmt: skip
            rates[name].append(float(out.stdout.strip().splitlines()[-1]))
    this, other = statistics.median(rates["this"]), statistics.median(rates["against"])
    return {"texts": len(texts), "rounds": rounds, "this_per_s": round(this, 1),
            "against_per_s": round(other, 1), "ratio": round(this / other, 3),
            "against": str(against)}  # fmt: skip


def classification() -> dict[str, Any]:
    """Accuracy of entry typing on the labelled sentences, overall and per type.

    ``recollect_graph/nlp/data/type_examples.jsonl`` is the set the rules were written against
    (and the examples the nearest-example step votes with, so only the rules are scored there);
    ``tests/data/classification_sentences_fresh.jsonl`` (80 more, written later by someone who had
    not read the classifier) is split by a hash of the id: its dev half may be looked at, its
    held-out half is reported without its errors. On it, ``rules`` is the pattern classifier
    alone and ``accuracy`` what ``remember(auto_classify=True)`` does: the patterns, then the
    nearest examples (:class:`~recollect_graph.nlp.type_examples.TypeExamples`) for what no
    pattern matched.
    """
    from recollect_graph.nlp.classify import classify
    from recollect_graph.nlp.embedder import Embedder
    from recollect_graph.nlp.type_examples import EXAMPLES_PATH, TypeExamples, load_examples

    examples = TypeExamples(Embedder())

    def typed(text: str) -> tuple[str, str]:
        kind, conf = classify(text)
        rules = kind
        if kind == "note" and conf == 0.0:
            found = examples.nearest(examples.embedder.embed([text])[0])
            kind = found[0] if found else kind
        return rules, kind

    def score(rows: list[dict[str, Any]], *, full: bool) -> dict[str, Any]:
        per: dict[str, list[int]] = {}
        rules_right = 0
        wrong = []
        for r in rows:
            rules, kind = typed(r["text"]) if full else (classify(r["text"])[0],) * 2
            rules_right += rules == r["type"]
            per.setdefault(r["type"], []).append(int(kind == r["type"]))
            if kind != r["type"]:
                wrong.append({"text": r["text"], "want": r["type"], "got": kind})
        right = sum(sum(v) for v in per.values())
        return {"sentences": len(rows), "accuracy": round(right / max(1, len(rows)), 3),
                "rules": round(rules_right / max(1, len(rows)), 3),
                "per_type": {t: f"{sum(v)}/{len(v)}" for t, v in sorted(per.items())},
                "wrong": wrong}  # fmt: skip

    out = score(load_examples(EXAMPLES_PATH), full=False)
    out.pop("wrong")
    text = (ROOT / "tests/data/classification_sentences_fresh.jsonl").read_text()
    fresh = [json.loads(line) for line in text.splitlines() if line.strip()]
    for name in ("dev", "heldout"):
        part = score([r for r in fresh if half_of(str(r["id"])) == name], full=True)
        if name == "heldout":
            part.pop("wrong")
        out[f"fresh_{name}"] = part
    return out


def main() -> None:
    """Print the report and write it as JSON."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--against", type=Path, help="another checkout to compare throughput with")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/claims_quality.json")
    ap.add_argument("--errors", action="store_true", help="list the dev half's wrong pairs")
    args = ap.parse_args()
    extractor = ClaimExtractor(SpacyLoader(exclude=CLAIM_EXCLUDE))
    result: dict[str, Any] = {"files": list(PAIR_FILES), "contradictions": {}}
    for half in ("dev", "heldout"):
        pairs = load_split(half)
        r = evaluate(extractor, pairs)
        ov, det = r["overall"], r["detection"]
        print(f"== {half}: {r['pairs']} pairs, {sum(p['label'] == 'none' for p in pairs)} "
              f"non-conflicts")  # fmt: skip
        print(f"   typed   P {ov['precision']:.3f}  R {ov['recall']:.3f}   "
              f"detection P {det['precision']:.3f}  R {det['recall']:.3f}   "
              f"type right {r['type_accuracy']:.3f}")  # fmt: skip
        for t, s in r["types"].items():
            print(f"   {t:22s} P {s['precision']:.3f}  R {s['recall']:.3f}  "
                  f"(tp {s['tp']} fp {s['fp']} fn {s['fn']})")  # fmt: skip
        for dim in ("slot", "kind", "register"):
            cells = ", ".join(f"{k} {v['right']}/{v['n']}" for k, v in r["by"][dim].items()
                              if k != "-")  # fmt: skip
            print(f"   by {dim}: {cells}")
        if args.errors and half == "dev":
            for e in r["errors"]:
                print(f"     {e['id']}: want {e['want']} got {e['got']}")
        r["errors"] = [e["id"] for e in r["errors"]] if half == "heldout" else r["errors"]
        result["contradictions"][half] = r
    result["classification"] = classification()
    print(f"== classification: {result['classification']}")
    result["check_cost_cpu"] = check_cost(extractor, load_split("dev") + load_split("heldout"))
    print(f"== check cost (CPU side, extraction + rules): {result['check_cost_cpu']}")
    if args.against:
        texts = [p[k] for h in ("dev", "heldout") for p in load_split(h) for k in ("a", "b")]
        result["extraction_throughput"] = throughput(args.against, (texts * 3)[:2000])
        print(f"== claim extraction throughput: {result['extraction_throughput']}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"written {args.out}")


if __name__ == "__main__":
    main()
