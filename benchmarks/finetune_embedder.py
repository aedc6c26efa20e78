"""Fine-tune all-MiniLM-L6-v2 on the tuning half of a benchmark, and measure dense recall on both.

An experiment of issue 21 (``docs/benchmarks.md``, "A fine-tuned embedder"): what is left of
LoCoMo's held-out gap is paraphrase, where the embedder bounds the search. This trains the
default model with in-batch negatives (multiple-negatives ranking loss, cosine x 20) on pairs
from the tuning half only, and prints dense Recall@10 of the base and the trained model on each
half, scored the way the search's dense side scores (the question with the speakers' names
replaced by "they", each turn as "<speaker>: <text>", mixed with its context vector at
``search_turn_context`` 1.5).

Pairs (``--source``):

- ``locomo``: LoCoMo's tuning conversations (the fixed split, ``locomo_split.SPLIT``): each
  question of categories 1-4 with each of its evidence turns (and that turn's context text),
  and each of the conversation's ``observation`` statements with the turn it was drawn from.
  Batches hold one conversation's pairs, so the other turns of the batch are hard negatives.
  LoCoMo is CC BY-NC 4.0: a model trained on it is for measurement here, not for shipping.
- ``lme``: LongMemEval's half A (MIT): each question with each ``has_answer`` turn, plus one
  other turn of its haystack as a hard negative.

Held-out conversations and LongMemEval's half B are never read for training.

Run: ``.venv/bin/python benchmarks/finetune_embedder.py --data PATH/locomo-dev.json
--out /tmp/minilm-r16 --rank 16 --lr 5e-4 --profile`` (rank-16 adapters, the ``r16`` model of
docs/benchmarks.md; about 4 minutes on 2 cores; without ``--rank`` every weight trains), which
saves the model with its profile (calibration fitted on the tuning questions and turns, the
settings of ``recollect_graph.nlp.finetune.PROFILE_SETTINGS``); then store and search with it:
``benchmarks/locomo.py --data PATH --embedding-model /tmp/minilm-r16``. ``--pairs-out FILE``
writes the pairs as JSON lines instead, for ``recollect-graph models train FILE --out DIR`` (the
same training, its calibration fitted on the pairs).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.locomo_split import SPLIT
from benchmarks.longmemeval_eval import half
from recollect_graph.analysis import locomo_eval as le
from recollect_graph.nlp.embedder import DEFAULT_MODEL, resolve_model_path
from recollect_graph.nlp.finetune import TrainingPair, train
from recollect_graph.services.search.query_text import without_names
from recollect_graph.services.sessions.index import turn_context_text, turn_embed_text
from recollect_graph.settings import Settings

#: The search's weight of a turn's context vector (the ``search_turn_context`` default).
TURN_CONTEXT = float(Settings.model_fields["search_turn_context"].default)
Pair = TrainingPair


def query_text(conv: le.Conversation, question: str) -> str:
    """The question as the search embeds it: the speakers' names replaced by "they"."""
    return without_names(question, [s.lower() for s in conv.speakers]) or question


def turn_texts(conv: le.Conversation) -> tuple[list[str], list[str | None]]:
    """Each turn's embedding text and context text (None where it gets no context vector)."""
    texts = [turn_embed_text(t.speaker, None, t.text) for t in conv.turns]
    contexts: list[str | None] = [None]
    for i in range(1, len(conv.turns)):
        same = conv.turns[i].session == conv.turns[i - 1].session
        contexts.append(turn_context_text(texts[i], texts[i - 1]) if same else None)
    return texts, contexts


def locomo_pairs(path: str) -> list[Pair]:
    """Question and observation pairs of the tuning conversations."""
    raw = {s["sample_id"]: s for s in json.loads(Path(path).read_text(encoding="utf-8"))}
    pairs: list[Pair] = []
    for conv in le.load(path, SPLIT["tuning"]):
        texts, contexts = turn_texts(conv)
        where = {t.dia_id: i for i, t in enumerate(conv.turns)}
        for q in conv.questions:
            if q.category not in le.MAIN_CATEGORIES:
                continue
            for g in q.gold:
                i = where[g]
                pairs.append(Pair(conv.sample_id, query_text(conv, q.question), texts[i]))
                context = contexts[i]
                if context:
                    pairs.append(Pair(conv.sample_id, query_text(conv, q.question), context))
        for per_speaker in raw[conv.sample_id].get("observation", {}).values():
            for statements in per_speaker.values():
                for item in statements:
                    sources = item[1] if isinstance(item[1], list) else [item[1]]
                    for src in sources:
                        if src in where:
                            text = query_text(conv, str(item[0]))
                            pairs.append(Pair(conv.sample_id, text, texts[where[src]]))
    return pairs


def lme_pairs(path: str, rng: random.Random) -> list[Pair]:
    """Evidence pairs of LongMemEval's half A, each with one other turn as a hard negative."""
    pairs: list[Pair] = []
    with gzip.open(path) as fh:
        data = json.load(fh)
    for q in data:
        if half(q["question_id"]) != "A":
            continue
        turns = [t for s in q["haystack_sessions"] for t in s]
        others = [t for t in turns if not t.get("has_answer")]
        for t in turns:
            if t.get("has_answer"):
                neg = rng.choice(others)
                pos_text = turn_embed_text(t["role"], t["role"], t["content"])
                neg_text = turn_embed_text(neg["role"], neg["role"], neg["content"])
                pairs.append(Pair("lme", q["question"], pos_text, neg_text))
    return pairs


def dense_recall(model: Any, convs: Sequence[le.Conversation], k: int = 10) -> float:
    """Mean Recall@k of categories 1-4, each turn scored as the search's dense side scores it."""

    def encode(texts: list[str]) -> np.ndarray[Any, Any]:
        return np.asarray(model.encode(texts, batch_size=64, normalize_embeddings=True))

    recalls: list[float] = []
    for conv in convs:
        texts, contexts = turn_texts(conv)
        vec = encode(texts)
        has = np.array([c is not None for c in contexts])
        ctx = np.zeros_like(vec)
        idx = [i for i, c in enumerate(contexts) if c]
        ctx[idx] = encode([c for c in contexts if c])
        ids = [t.dia_id for t in conv.turns]
        qs = [q for q in conv.questions if q.category in le.MAIN_CATEGORIES and q.gold]
        qv = encode([query_text(conv, q.question) for q in qs])
        own = qv @ vec.T
        mixed = (own + TURN_CONTEXT * (qv @ ctx.T)) / (1 + TURN_CONTEXT)
        scores = np.where(has[None, :], mixed, own)
        for q, row in zip(qs, scores, strict=True):
            ranked = [ids[i] for i in np.argsort(-row)[:k]]
            recalls.append(le.recall_at(ranked, q.gold, k))
    return float(np.mean(recalls))


def write_profile(data: str, out: str) -> Path:
    """Fit the calibration of the model saved in ``out`` and write its profile file there.

    The calibration is fitted as ``benchmarks/calibrate_model.py`` fits e5's: every question of
    the tuning conversations against every turn, under the trained model and under MiniLM.
    """
    from benchmarks.calibrate_model import cosines
    from recollect_graph.nlp.embedder import Embedder
    from recollect_graph.nlp.finetune import fit_calibration, save_profile

    convs = le.load(data, list(SPLIT["tuning"]))
    cal = fit_calibration(cosines(Embedder(out), convs), cosines(Embedder(DEFAULT_MODEL), convs))
    return save_profile(Path(out), cal)


def main(argv: Sequence[str] | None = None) -> None:
    """Train, save, and print dense R@10 of both models on both LoCoMo halves."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True, help="a LoCoMo-format JSON file (the dev file)")
    ap.add_argument("--lme", help="LongMemEval_S dev file (.json.gz), for --source lme")
    ap.add_argument("--source", choices=("locomo", "lme"), default="locomo")
    ap.add_argument("--out", help="where the trained model is saved")
    ap.add_argument(
        "--pairs-out",
        help="write the pairs as JSON lines for `recollect-graph models train` and stop",
    )
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--lr", type=float, default=2e-5)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--rank", type=int, default=0, help="low-rank adapters only (0: every weight)")
    ap.add_argument(
        "--profile",
        action="store_true",
        help="fit the trained model's calibration on the tuning conversations and write its "
        "profile (recollect-graph-profile.json, with PROFILE_SETTINGS) next to its weights",
    )
    args = ap.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from sentence_transformers import SentenceTransformer

    path = resolve_model_path(DEFAULT_MODEL)
    if args.source == "lme" and not args.lme:
        ap.error("--source lme needs --lme PATH")
    pairs = (
        locomo_pairs(args.data)
        if args.source == "locomo"
        else lme_pairs(args.lme, random.Random(0))
    )
    print(f"{len(pairs)} pairs from {args.source}")
    if args.pairs_out:
        rows = (
            {"query": p.query, "positive": p.positive, "group": p.group}
            | ({"negative": p.negative} if p.negative else {})
            for p in pairs
        )
        Path(args.pairs_out).write_text(
            "".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8"
        )
        print(f"wrote {args.pairs_out} (not for the repository: the data's licence holds)")
        return
    if not args.out:
        ap.error("--out is needed to train")
    base = SentenceTransformer(path, device="cpu")
    model = SentenceTransformer(path, device="cpu")
    _, merged = train(model, pairs, epochs=args.epochs, lr=args.lr, size=args.batch, rank=args.rank)
    if merged:
        print(f"merged {merged:,} adapter parameters (rank {args.rank})")
    model.save(args.out)
    if args.profile:
        print(f"profile: {write_profile(args.data, args.out)}")
    for name, part in SPLIT.items():
        convs = le.load(args.data, part)
        print(
            f"{name}: dense R@10 base {dense_recall(base, convs):.3f}, "
            f"trained {dense_recall(model, convs):.3f}"
        )


if __name__ == "__main__":
    main()
