"""Fit an embedding model's similarity calibration (``recollect_graph.nlp.model_profiles``).

Every question of LoCoMo's tuning conversations (the fixed split: conv-26, conv-30, conv-41;
the held-out ones are never read) is embedded as a query and every turn as a stored text, by the
model and by all-MiniLM-L6-v2, the model the search's weights and thresholds were set on. The
calibration is the least-squares line through the two models' cosine quantiles 0.5, 0.9, 0.99 and
0.999: it maps the model's cosines onto MiniLM's where the candidates of a search lie.

Run: ``.venv/bin/python benchmarks/calibrate_model.py --data PATH/locomo-dev.json e5-small-v2``
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from benchmarks.locomo_split import SPLIT
from recollect_graph.analysis import locomo_eval as le
from recollect_graph.nlp.embedder import DEFAULT_MODEL, Embedder
from recollect_graph.nlp.finetune import QUANTILES, fit_calibration


def cosines(embedder: Embedder, convs: Sequence[le.Conversation]) -> np.ndarray[Any, Any]:
    """Every (question, turn) cosine of each conversation, flattened."""
    out = []
    for c in convs:
        docs = np.asarray(embedder.embed([t.text for t in c.turns]))
        qs = [q.question for q in c.questions if q.category in (1, 2, 3, 4)]
        out.append((np.asarray(embedder.embed_queries(qs)) @ docs.T).ravel())
    return np.concatenate(out)


def fit(model: np.ndarray[Any, Any], reference: np.ndarray[Any, Any]) -> dict[str, Any]:
    """The line through the quantiles, and both distributions' summaries."""
    qm = np.quantile(model, QUANTILES)
    qr = np.quantile(reference, QUANTILES)
    line = fit_calibration(model, reference)
    return {
        "offset": line.offset,
        "scale": line.scale,
        "quantiles": list(QUANTILES),
        "model_quantiles": [round(float(x), 4) for x in qm],
        "reference_quantiles": [round(float(x), 4) for x in qr],
        "pairs": int(model.size),
    }


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", required=True, help="the LoCoMo dev file")
    ap.add_argument("model", help="the model to calibrate (RECOLLECT_EMBEDDING_MODEL's names)")
    args = ap.parse_args(argv)
    convs = le.load(args.data, list(SPLIT["tuning"]))
    result = fit(cosines(Embedder(args.model), convs), cosines(Embedder(DEFAULT_MODEL), convs))
    result["model"] = args.model
    json.dump(result, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
