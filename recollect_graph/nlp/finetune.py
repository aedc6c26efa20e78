"""Adapt the embedding model to your own questions: rank-16 adapters trained on pairs, on CPU.

What a search misses most often is paraphrase: the question and the memory that answers it
share no words, and the embedder does not see them as close (docs/benchmarks.md, issue 21).
Where you have examples of questions and the texts that answer them, training the encoder on
them moves that bound: on LoCoMo, rank-16 adapters trained on three conversations' questions took
dense Recall@10 on two other conversations from 0.604 to 0.731 and the search past every
held-out target (docs/search.md, "A model trained on your own pairs").

:func:`finetune` trains all-MiniLM-L6-v2 (or another sentence-transformers model) with the
multiple-negatives ranking loss (each query against every positive of its batch, cosine x 20):
only low-rank adapters beside each encoder ``Linear`` learn (:func:`low_rank`), and are merged
into the weights at the end (:func:`merge`), so the saved model is an ordinary
sentence-transformers directory that the ONNX backend exports like any other. Its cosines are
then mapped onto the base model's scale (:func:`fit_calibration`) and written with the search
settings of a sharper model into the directory's profile
(:data:`~recollect_graph.nlp.model_profiles.PROFILE_FILE`). Needs torch (the torch backend's
dependency, installed with sentence-transformers).

Pairs come as JSON lines (:func:`read_pairs`): ``{"query": ..., "positive": ...}``, with an
optional ``"negative"`` (a text that looks related and does not answer) and ``"group"`` (pairs
of one group share their batches, so the group's other texts are the hard negatives: one
conversation, one project).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from recollect_graph.errors import InvalidInput
from recollect_graph.nlp.model_profiles import (
    Calibration,
    ModelProfile,
    profile_of,
    write_profile_file,
)

#: The cosine quantiles matched between a trained model and its base (where a search's
#: candidates lie: the top of the distribution).
QUANTILES = (0.5, 0.9, 0.99, 0.999)

#: The search settings a trained model's profile brings, e5-small-v2's: it leans on its sharper
#: cosine (``w_keyword`` 0.15), and its semantic floors sit 0.1 higher, so that off-topic
#: questions get few hits (LoCoMo, the rank-16 model: 2.73 hits per off-topic search at
#: MiniLM's floors, 0.38 at these; the tuning conversations' R@10 0.914 -> 0.916).
PROFILE_SETTINGS: dict[str, float] = {
    "w_keyword": 0.15,
    "search_floor": 0.35,
    "search_floor_confident": 0.55,
    "search_floor_relaxed": 0.3,
    "search_floor_time": 0.3,
}

#: Fewer pairs than this teach nothing but noise.
MIN_PAIRS = 16


class TrainingPair(NamedTuple):
    """A question and a text that answers it (and, optionally, one that does not)."""

    group: str
    query: str
    positive: str
    negative: str | None = None


@dataclass(frozen=True)
class FinetuneResult:
    """What :func:`finetune` made."""

    path: Path
    pairs: int
    epochs: int
    rank: int
    losses: tuple[float, ...]
    adapter_parameters: int
    calibration: Calibration
    seconds: float


def read_pairs(path: Path) -> list[TrainingPair]:
    """The pairs of a JSON-lines file; :class:`InvalidInput` names the first bad line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"cannot read the pairs file {path}: {exc}") from exc
    pairs: list[TrainingPair] = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as exc:
            raise InvalidInput(f"{path}:{n}: not JSON ({exc})") from exc
        if not isinstance(row, dict):
            raise InvalidInput(f"{path}:{n}: a pair is an object with query and positive")
        unknown = sorted(set(row) - {"query", "positive", "negative", "group"})
        if unknown:
            raise InvalidInput(f"{path}:{n}: unknown keys {', '.join(unknown)}")
        values: dict[str, str | None] = {}
        for key in ("query", "positive", "negative", "group"):
            value = row.get(key)
            required = key in ("query", "positive")
            if value is None and not required:
                values[key] = None
                continue
            if not isinstance(value, str) or not value.strip():
                raise InvalidInput(f"{path}:{n}: {key} must be a non-empty string")
            values[key] = value
        pairs.append(
            TrainingPair(
                values["group"] or "",
                str(values["query"]),
                str(values["positive"]),
                values["negative"],
            )
        )
    if len(pairs) < MIN_PAIRS:
        raise InvalidInput(f"{path}: {len(pairs)} pairs; at least {MIN_PAIRS} are needed")
    return pairs


def batches(
    pairs: Sequence[TrainingPair], size: int, rng: random.Random
) -> list[list[TrainingPair]]:
    """Batches of one group each, no positive twice in a batch, in random order."""
    out: list[list[TrainingPair]] = []
    for group in sorted({p.group for p in pairs}):
        mine = [p for p in pairs if p.group == group]
        rng.shuffle(mine)
        cur: list[TrainingPair] = []
        seen: set[str] = set()
        for p in mine:
            if p.positive in seen:
                continue
            cur.append(p)
            seen.add(p.positive)
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
    model: Any,
    pairs: Sequence[TrainingPair],
    *,
    epochs: int,
    lr: float,
    size: int,
    rank: int = 0,
    say: Callable[[str], None] = print,
) -> tuple[list[float], int]:
    """Multiple-negatives ranking loss over in-batch (and hard) negatives, seeded (0).

    ``rank`` > 0 trains low-rank adapters only (:func:`low_rank`), merged at the end: the
    change to the model is then ``rank x (in + out)`` numbers per layer. Returns each epoch's
    mean loss and the adapters' parameter count (0 when every weight trained).
    """
    import torch
    from torch.nn import functional

    rng = random.Random(0)
    torch.manual_seed(0)
    adapters = low_rank(model, rank) if rank > 0 else []
    params = [p for _, a, b, _ in adapters for p in (a, b)] or list(model.parameters())
    opt = torch.optim.AdamW(params, lr=lr)
    model.train()

    # ``preprocess`` since sentence-transformers 6 (``tokenize`` before, deprecated there)
    features = getattr(model, "preprocess", None) or model.tokenize

    def encode(texts: list[str]) -> Any:
        return functional.normalize(model(features(texts))["sentence_embedding"], dim=-1)

    start = time.monotonic()
    losses: list[float] = []
    for epoch in range(epochs):
        total, parts = 0.0, batches(pairs, size, rng)
        for b in parts:
            negs = [p.negative for p in b if p.negative is not None]
            q = encode([p.query for p in b])
            d = encode([p.positive for p in b] + negs)
            loss = functional.cross_entropy(q @ d.T * 20.0, torch.arange(len(b)))
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            total += float(loss.item())
        losses.append(total / len(parts))
        took = time.monotonic() - start
        say(f"epoch {epoch + 1}: loss {losses[-1]:.3f}, {len(parts)} batches, {took:.0f} s")
    merged = merge(adapters) if adapters else 0
    model.eval()
    return losses, merged


def fit_calibration(model: Any, reference: Any) -> Calibration:
    """The line through the quantiles (:data:`QUANTILES`) of two cosine samples.

    ``model`` and ``reference`` are arrays of the same pairs' cosines under the trained model
    and the base model; the line maps the first onto the second.
    """
    import numpy as np

    qm = np.quantile(model, QUANTILES)
    qr = np.quantile(reference, QUANTILES)
    scale, offset = np.polyfit(qm, qr, 1)
    return Calibration(offset=round(float(offset), 3), scale=round(float(scale), 3))


def pair_cosines(
    encode: Callable[[list[str]], Any],
    queries: list[str],
    texts: list[str],
    skip: Container[tuple[str, str]] = (),
) -> Any:
    """Every (query, text) cosine but the pairs in ``skip``, flattened (unit vectors)."""
    import numpy as np

    cos = np.asarray(encode(queries)) @ np.asarray(encode(texts)).T
    keep = np.array([[(q, t) not in skip for t in texts] for q in queries], dtype=bool)
    return cos[keep]


def save_profile(directory: Path, calibration: Calibration) -> Path:
    """Write a trained model's profile: its calibration and :data:`PROFILE_SETTINGS`."""
    settings = tuple(sorted(PROFILE_SETTINGS.items()))
    return write_profile_file(directory, ModelProfile(calibration=calibration, settings=settings))


def finetune(
    pairs: Sequence[TrainingPair],
    out: Path,
    *,
    base: str,
    rank: int = 16,
    lr: float = 5e-4,
    epochs: int = 2,
    batch: int = 32,
    say: Callable[[str], None] = print,
) -> FinetuneResult:
    """Train ``base`` on ``pairs``, save it with its profile in ``out``, and say how it went.

    The calibration is fitted on the pairs themselves: at most 300 queries against at most
    3,000 of the texts, each query's own positives left out, under the trained model and under
    ``base`` (then through ``base``'s own calibration, for a base other than MiniLM). A base
    that reads prefixed text (e5) is refused: the pairs would be trained without them.
    """
    if len(pairs) < MIN_PAIRS:
        raise InvalidInput(f"{len(pairs)} pairs; at least {MIN_PAIRS} are needed")
    if rank < 1 or epochs < 1 or batch < 2 or not 0 < lr < 1:
        raise InvalidInput("rank and epochs must be at least 1, batch at least 2, lr in (0, 1)")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise InvalidInput(f"{out} exists and is not an empty directory: name a new one")
    own = profile_of(base)
    if own.query_prefix or own.passage_prefix:
        raise InvalidInput(f"{base} reads prefixed text; adapt a model without prefixes")
    from sentence_transformers import SentenceTransformer

    from recollect_graph.nlp.embedder import resolve_model_path

    start = time.monotonic()
    path = resolve_model_path(base)
    model = SentenceTransformer(path, device="cpu")
    reference = SentenceTransformer(path, device="cpu")
    say(f"training rank-{rank} adapters on {len(pairs)} pairs, {epochs} epochs")
    losses, params = train(model, pairs, epochs=epochs, lr=lr, size=batch, rank=rank, say=say)
    rng = random.Random(0)
    queries = sorted({p.query for p in pairs})
    texts = sorted({p.positive for p in pairs} | {p.negative for p in pairs if p.negative})
    queries = rng.sample(queries, min(300, len(queries)))
    texts = rng.sample(texts, min(3000, len(texts)))

    def encoder(m: Any) -> Callable[[list[str]], Any]:
        return lambda t: m.encode(t, batch_size=64, normalize_embeddings=True)

    say("fitting the calibration onto the base model's cosines")
    # a query's own positives are what it was trained towards: their cosines say how well it
    # learned, not how the model's scale sits against the base's
    trained = {(p.query, p.positive) for p in pairs}
    onto_base = fit_calibration(
        pair_cosines(encoder(model), queries, texts, trained),
        pair_cosines(encoder(reference), queries, texts, trained),
    )
    # the base's own scale maps onto MiniLM's in turn (the identity for MiniLM)
    b = own.calibration
    calibration = Calibration(
        offset=round(b.offset + b.scale * onto_base.offset, 3),
        scale=round(b.scale * onto_base.scale, 3),
    )
    out.mkdir(parents=True, exist_ok=True)
    model.save(str(out))
    save_profile(out, calibration)
    return FinetuneResult(
        path=out,
        pairs=len(pairs),
        epochs=epochs,
        rank=rank,
        losses=tuple(losses),
        adapter_parameters=params,
        calibration=calibration,
        seconds=time.monotonic() - start,
    )
