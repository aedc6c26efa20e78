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
--out /tmp/minilm-locomo`` (every weight; about 4 minutes on 2 cores), or with ``--rank 16
--lr 5e-4`` for rank-16 adapters (the ``r16`` model of docs/benchmarks.md); then fit its
calibration (``benchmarks/calibrate_model.py --data PATH /tmp/minilm-locomo``), give it a
profile with that calibration (``recollect_graph/nlp/model_profiles.py``, keyed by the path),
and store and search with it:
``benchmarks/locomo.py --data PATH --embedding-model /tmp/minilm-locomo --backend torch``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.locomo_split import SPLIT
from benchmarks.longmemeval_eval import half
from recollect_graph.analysis import locomo_eval as le
from recollect_graph.nlp.embedder import DEFAULT_MODEL, resolve_model_path
from recollect_graph.services.search.query_text import without_names
from recollect_graph.services.sessions.index import turn_context_text, turn_embed_text
from recollect_graph.settings import Settings

#: The search's weight of a turn's context vector (the ``search_turn_context`` default).
TURN_CONTEXT = float(Settings.model_fields["search_turn_context"].default)
Pair = tuple[str, str, str, str | None]  # group, query, positive, hard negative


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
                pairs.append((conv.sample_id, query_text(conv, q.question), texts[i], None))
                if contexts[i]:
                    pairs.append((conv.sample_id, query_text(conv, q.question), contexts[i], None))
        for per_speaker in raw[conv.sample_id].get("observation", {}).values():
            for statements in per_speaker.values():
                for item in statements:
                    sources = item[1] if isinstance(item[1], list) else [item[1]]
                    for src in sources:
                        if src in where:
                            text = query_text(conv, str(item[0]))
                            pairs.append((conv.sample_id, text, texts[where[src]], None))
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
                pairs.append(("lme", q["question"], pos_text, neg_text))
    return pairs


def batches(pairs: Sequence[Pair], size: int, rng: random.Random) -> list[list[Pair]]:
    """Batches of one group each, no positive twice in a batch, in random order."""
    out: list[list[Pair]] = []
    for group in sorted({p[0] for p in pairs}):
        mine = [p for p in pairs if p[0] == group]
        rng.shuffle(mine)
        cur: list[Pair] = []
        seen: set[str] = set()
        for p in mine:
            if p[2] in seen:
                continue
            cur.append(p)
            seen.add(p[2])
            if len(cur) == size:
                out.append(cur)
                cur, seen = [], set()
        if cur:
            out.append(cur)
    rng.shuffle(out)
    return out


def low_rank(model: Any, rank: int) -> list[tuple[Any, Any, Any, Any]]:
    """Freeze ``model`` and give each encoder ``Linear`` a trainable ``B @ A`` beside it.

    Returns (layer, A, B, hook handle) tuples; :func:`merge` folds them into the weights.
    ``B`` starts at zero, so training starts from the model as it is.
    """
    import torch

    for p in model.parameters():
        p.requires_grad_(False)
    out: list[tuple[Any, Any, Any, Any]] = []
    for name, layer in model.named_modules():
        if isinstance(layer, torch.nn.Linear) and ".encoder." in f".{name}":
            a = torch.nn.Parameter(torch.randn(rank, layer.in_features) / layer.in_features**0.5)
            b = torch.nn.Parameter(torch.zeros(layer.out_features, rank))
            hook = layer.register_forward_hook(lambda m, x, y, a=a, b=b: y + (x[0] @ a.T) @ b.T)
            out.append((layer, a, b, hook))
    return out


def merge(adapters: Sequence[tuple[Any, Any, Any, Any]]) -> int:
    """Fold each adapter into its layer's weight; returns the adapters' parameter count."""
    import torch

    n = 0
    with torch.no_grad():
        for layer, a, b, hook in adapters:
            layer.weight += b @ a
            hook.remove()
            n += a.numel() + b.numel()
    return n


def train(
    model: Any, pairs: Sequence[Pair], *, epochs: int, lr: float, size: int, rank: int = 0
) -> None:
    """Multiple-negatives ranking loss over in-batch (and hard) negatives.

    ``rank`` > 0 trains low-rank adapters only (:func:`low_rank`), merged at the end: the
    change to the model is then ``rank x (in + out)`` numbers per layer, small enough to ship.
    """
    import torch
    from torch.nn import functional

    rng = random.Random(0)
    torch.manual_seed(0)
    adapters = low_rank(model, rank) if rank > 0 else []
    params = [p for _, a, b, _ in adapters for p in (a, b)] or list(model.parameters())
    opt = torch.optim.AdamW(params, lr=lr)
    model.train()

    def encode(texts: list[str]) -> Any:
        return functional.normalize(model(model.tokenize(texts))["sentence_embedding"], dim=-1)

    start = time.monotonic()
    for epoch in range(epochs):
        total, parts = 0.0, batches(pairs, size, rng)
        for b in parts:
            negs = [p[3] for p in b if p[3] is not None]
            q = encode([p[1] for p in b])
            d = encode([p[2] for p in b] + negs)
            loss = functional.cross_entropy(q @ d.T * 20.0, torch.arange(len(b)))
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.item())
        took = time.monotonic() - start
        print(
            f"epoch {epoch + 1}: loss {total / len(parts):.3f}, {len(parts)} batches, {took:.0f} s"
        )
    if adapters:
        print(f"merged {merge(adapters):,} adapter parameters (rank {rank})")
    model.eval()


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


#: The search settings a trained model's profile brings, e5-small-v2's (docs/benchmarks.md, "A
#: fine-tuned embedder"): it leans on its better cosine (``w_keyword`` 0.15), and its semantic
#: floors sit 0.1 higher, so that off-topic questions get few hits (LoCoMo: 2.73 hits per search
#: at MiniLM's floors, 0.38 at these; the tuning conversations' R@10 0.914 -> 0.916).
PROFILE_SETTINGS: dict[str, float] = {
    "w_keyword": 0.15,
    "search_floor": 0.35,
    "search_floor_confident": 0.55,
    "search_floor_relaxed": 0.3,
    "search_floor_time": 0.3,
}


def write_profile(data: str, out: str) -> Path:
    """Fit the calibration of the model saved in ``out`` and write its profile file there."""
    from benchmarks.calibrate_model import cosines, fit
    from recollect_graph.nlp.embedder import Embedder
    from recollect_graph.nlp.model_profiles import (
        Calibration,
        ModelProfile,
        write_profile_file,
    )

    convs = le.load(data, list(SPLIT["tuning"]))
    cal = fit(cosines(Embedder(out), convs), cosines(Embedder(DEFAULT_MODEL), convs))
    profile = ModelProfile(
        calibration=Calibration(offset=cal["offset"], scale=cal["scale"]),
        settings=tuple(sorted(PROFILE_SETTINGS.items())),
    )
    return write_profile_file(Path(out), profile)


def main(argv: Sequence[str] | None = None) -> None:
    """Train, save, and print dense R@10 of both models on both LoCoMo halves."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True, help="a LoCoMo-format JSON file (the dev file)")
    ap.add_argument("--lme", help="LongMemEval_S dev file (.json.gz), for --source lme")
    ap.add_argument("--source", choices=("locomo", "lme"), default="locomo")
    ap.add_argument("--out", required=True, help="where the trained model is saved")
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
    base = SentenceTransformer(path, device="cpu")
    model = SentenceTransformer(path, device="cpu")
    train(model, pairs, epochs=args.epochs, lr=args.lr, size=args.batch, rank=args.rank)
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
