"""LoCoMo retrieval quality: our hybrid search next to BM25, dense cosine and RRF baselines.

Each conversation of a LoCoMo-format file is stored the way a user stores chat history, through
the public API, in a scope of its own (``locomo-<sample_id>-<runid>``): every LoCoMo session
becomes a session of ordered turns (``rg.sessions.add_turns``; ``--store remember_many`` stores
each turn as an entry with the session in its metadata instead). Each question is searched with
``rg.search`` in its conversation's scope (``touch=False``, so the access signals do not drift
with question order) and scored from the hits' ``source_id`` (the turn's ``dia_id``):
turn-level Recall@1/5/10, NDCG@10 and MRR per category, categories 1-4 in the overall figures
and category 5 (adversarial) reported apart.

The baselines run in the same invocation over the same turns, each indexed as
``"(session date) speaker: text"``: BM25 (``rank_bm25.BM25Okapi``, lowercase word tokens; and
``bm25-stop``, the same without spaCy's English stop words), dense cosine with the same embedding
model (numpy) and equal-weight reciprocal rank fusion (k = 60) of ``bm25`` and ``dense``.

Run: ``.venv/bin/python benchmarks/locomo.py --data PATH/locomo10.json``
(needs ``pip install -e '.[bench]'`` for ``rank_bm25``). The store is a throwaway embedded Neo4j
unless ``--uri`` names one (its scopes are deleted afterwards unless ``--keep``).
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import locomo_eval as le
from benchmarks import locomo_split
from benchmarks.retrieval import (
    _unit,
    add_output_options,
    add_store_options,
    bench_main,
    drop_scopes,
    git_commit,
    log,
    off_topic_lines,
    off_topic_summary,
    open_store,
    run_id,
    write_details,
)
from recollect_graph import Recollect, Settings

ROOT = Path(__file__).resolve().parents[1]
BASELINES = ("bm25", "bm25-stop", "dense", "rrf")
#: ``--weights`` keys passed to ``rg.search`` rather than to the settings.
SEARCH_OPTIONS = {"hops": int, "min_score": float}
#: Questions about things no LoCoMo conversation mentions: the relevance floor should answer them
#: with few or no hits (``off_topic`` in the results: hits per search, by variant).
OFF_TOPIC = (
    "What is the boiling point of tungsten?",
    "Who won the 1998 chess olympiad?",
    "How do I configure a Kubernetes ingress controller?",
    "What is the molar mass of sulfuric acid?",
    "Which river flows through Ulaanbaatar?",
    "Explain lattice gauge theory in quantum chromodynamics",
    "What is the torque spec for a Honda CB500 cylinder head?",
    "Who designed the Brooklyn Bridge?",
)
#: The same kind of question asked with a time ("in the past month"), searched as of a day after
#: the conversation's last session: every turn said then is context for it and none is about
#: it, so the floor should still answer with few or no hits (``off_topic_timed``).
OFF_TOPIC_TIMED = (
    "What did I find out about the boiling point of tungsten in the past month?",
    "Did we talk about configuring a Kubernetes ingress controller this year?",
    "What was the molar mass of sulfuric acid we went over in the past two weeks?",
    "Which river flows through Ulaanbaatar, as we said in the last three months?",
)
#: Spacing of the turns of one session (the data gives the session's start only).
TURN_SPACING = timedelta(minutes=1)


# -- options -----------------------------------------------------------------------------------


class Variant:
    """One configuration of our search: settings overrides and search options."""

    def __init__(self, spec: str = "") -> None:
        self.name = f"ours[{spec}]" if spec else "ours"
        self.settings: dict[str, Any] = {}
        self.options: dict[str, Any] = {}
        fields = Settings.model_fields
        for part in filter(None, (p.strip() for p in spec.split(","))):
            key, sep, value = part.partition("=")
            key = key.strip()
            if not sep:
                raise SystemExit(f"--weights: expected key=value, got {part!r}")
            if key in SEARCH_OPTIONS:
                self.options[key] = SEARCH_OPTIONS[key](value)
            elif key in fields and (key.startswith(("w_", "search_")) or key == "fusion"):
                self.settings[key] = value.strip()
            else:
                raise SystemExit(
                    f"--weights: unknown key {key!r} (w_*, fusion, search_*, "
                    f"{', '.join(SEARCH_OPTIONS)})"
                )


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--data", type=Path, required=True, help="a LoCoMo-format JSON file")
    ap.add_argument("--samples", help="comma-separated sample ids (default: all)")
    ap.add_argument(
        "--limit-questions", type=int, default=None, help="first N questions per conversation"
    )
    ap.add_argument(
        "--store",
        choices=("add_turns", "remember_many"),
        default="add_turns",
        help="how turns are stored: sessions of turns (default) or one entry per turn",
    )
    ap.add_argument(
        "--weights",
        action="append",
        default=[],
        metavar="K=V,...",
        help="an extra variant of ours: settings (w_semantic, w_keyword, w_graph, ..., fusion, "
        "search_candidates) and search options (hops, min_score); repeatable",
    )
    ap.add_argument("--limit", type=int, default=10, help="hits per search (default 10)")
    add_store_options(ap, "conversations")
    add_output_options(ap)
    return ap.parse_args(argv)


# -- storing -----------------------------------------------------------------------------------


def store_conversation(rg: Recollect, conv: le.Conversation, scope: str, how: str) -> int:
    """Store every turn of ``conv`` in ``scope``; returns the number of turns stored."""
    owner = "locomo"
    n = 0
    if how == "add_turns":
        for s in conv.sessions:
            turns = [
                {
                    "id": t.dia_id,
                    "speaker": t.speaker,
                    "text": t.text,
                    "at": s.at + i * TURN_SPACING,
                }
                for i, t in enumerate(s.turns)
            ]
            rg.sessions.add_turns(
                f"{conv.sample_id}-session_{s.n}", turns, scope_id=scope, owner_id=owner
            )
            n += len(turns)
        return n
    items = [
        {
            "content": f"{t.speaker}: {t.text}",
            "source_id": t.dia_id,
            "valid_from": s.at + i * TURN_SPACING,
            "metadata": {"session": s.n, "speaker": t.speaker},
            "entry_type": "note",
        }
        for s in conv.sessions
        for i, t in enumerate(s.turns)
    ]
    rg.remember_many(items, scope_id=scope, owner_id=owner)
    return len(items)


# -- baselines ---------------------------------------------------------------------------------


class Baselines:
    """BM25, dense cosine and RRF over one conversation's turns, in process."""

    def __init__(self, rg: Recollect, conv: le.Conversation, questions: Sequence[str]) -> None:
        from rank_bm25 import BM25Okapi  # type: ignore[import-untyped]

        turns = conv.turns
        self.ids = [t.dia_id for t in turns]
        docs = [t.indexed_text() for t in turns]
        self.bm25 = BM25Okapi([le.tokenize(d) for d in docs])
        self.bm25_stop = BM25Okapi([le.tokenize(d, stop_words=True) for d in docs])
        self.questions = list(questions)
        self.docs: npt.NDArray[np.float32] = _unit(rg.embedder.embed(docs))
        self.queries: npt.NDArray[np.float32] = _unit(rg.embedder.embed_queries(self.questions))

    def _order(self, scores: npt.NDArray[np.float64]) -> list[str]:
        order = np.argsort(-scores, kind="stable")
        return [self.ids[i] for i in order]

    def rankings(self, qi: int, limit: int) -> dict[str, list[str]]:
        bm = self._order(np.asarray(self.bm25.get_scores(le.tokenize(self.questions[qi]))))
        q = self.questions[qi]
        bm_stop = self._order(np.asarray(self.bm25_stop.get_scores(le.tokenize(q, True))))
        dense = self._order((self.docs @ self.queries[qi]).astype(np.float64))
        return {
            "bm25": bm[:limit],
            "bm25-stop": bm_stop[:limit],
            "dense": dense[:limit],
            "rrf": le.rrf([bm, dense], k=60, limit=limit),
        }


# -- the run -----------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> dict[str, Any]:
    samples = [s.strip() for s in args.samples.split(",")] if args.samples else None
    convs = le.load(args.data, samples)
    variants = [Variant(), *(Variant(w) for w in args.weights)]
    systems = [v.name for v in variants] + ([] if args.no_baselines else list(BASELINES))
    runid = run_id(args)
    evidence = le.EvidenceStats()
    rows: dict[str, list[tuple[int, dict[str, float]]]] = {s: [] for s in systems}
    by_sample: dict[str, dict[str, list[tuple[int, dict[str, float]]]]] = {}
    latency: dict[str, list[float]] = {v.name: [] for v in variants}
    off_topic: dict[str, list[int]] = {v.name: [] for v in variants}
    off_timed: dict[str, list[int]] = {v.name: [] for v in variants}
    ingest: list[dict[str, Any]] = []
    details: list[dict[str, Any]] = []
    scopes: list[str] = []
    t_start = time.perf_counter()
    how = args.store
    with open_store(args) as settings, Recollect.open(settings) as rg:
        # one driver and one model; each variant its own settings
        engines = [(v, _variant_rg(rg, v) if v.settings else rg) for v in variants]
        rg.embedder.embed(["warm up the model"])
        # every conversation is stored first, so each is searched in the same multi-scope store
        for conv in convs:
            evidence.add(conv.stats)
            scope = f"locomo-{conv.sample_id}-{runid}"
            scopes.append(scope)
            t0 = time.perf_counter()
            n = len(conv.turns) if args.reuse else store_conversation(rg, conv, scope, how)
            secs = time.perf_counter() - t0
            ingest.append({"sample": conv.sample_id, "turns": n, "seconds": round(secs, 1)})
            log(f"{conv.sample_id}: stored {n} turns ({how}) in {secs:.1f} s")
        for conv, scope in zip(convs, scopes, strict=True):
            qs = list(conv.questions[: args.limit_questions])
            base = None
            if not args.no_baselines:
                t0 = time.perf_counter()
                base = Baselines(rg, conv, [q.question for q in qs])
                log(f"{conv.sample_id}: baselines indexed in {time.perf_counter() - t0:.1f} s")
            per = by_sample.setdefault(conv.sample_id, {s: [] for s in systems})
            for qi, q in enumerate(qs):
                ranked: dict[str, list[str | None]] = {}
                for v, engine in engines:
                    t0 = time.perf_counter()
                    hits = engine.search(
                        q.question, scope_id=scope, limit=args.limit, touch=False, **v.options
                    )
                    latency[v.name].append((time.perf_counter() - t0) * 1000)
                    ranked[v.name] = [h.entry.source_id for h in hits]
                if base is not None:
                    for name, ids in base.rankings(qi, args.limit).items():
                        ranked[name] = list(ids)
                for name, r in ranked.items():
                    m = le.score_ranking(r, q.gold)
                    rows[name].append((q.category, m))
                    per[name].append((q.category, m))
                details.append(
                    {
                        "sample": conv.sample_id,
                        "q": q.index,
                        "category": q.category,
                        "question": q.question,
                        "gold": list(q.gold),
                        "ranked": ranked,
                    }
                )
                if (qi + 1) % 50 == 0 or qi + 1 == len(qs):
                    log(f"{conv.sample_id}: {qi + 1}/{len(qs)} questions")
            for v, engine in engines:
                for q_off in OFF_TOPIC:
                    found = engine.search(
                        q_off, scope_id=scope, limit=args.limit, touch=False, **v.options
                    )
                    off_topic[v.name].append(len(found))
                then = max(s.at for s in conv.sessions) + timedelta(days=1)
                for q_off in OFF_TOPIC_TIMED:
                    found = engine.search(
                        q_off,
                        scope_id=scope,
                        limit=args.limit,
                        touch=False,
                        valid_at=then,
                        **v.options,
                    )
                    off_timed[v.name].append(len(found))
        if args.uri and not args.keep and not args.reuse:
            drop_scopes(rg, scopes)
        used = {k: getattr(rg.settings, k) for k in _WEIGHT_FIELDS}
        model = rg.embedder.model_id
        backend = rg.embedder.backend
    write_details(args.details, details)
    result: dict[str, Any] = {
        "benchmark": "locomo retrieval (turn level)",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": git_commit(),
        "data": {
            "file": args.data.name,
            "sha256": hashlib.sha256(args.data.read_bytes()).hexdigest()[:16],
            "samples": [c.sample_id for c in convs],
            "limit_questions": args.limit_questions,
        },
        "store": how,
        "search": {
            "limit": args.limit,
            "touch": False,
            "settings": used,
            "model": model,
            "backend": backend,
        },
        "variants": {v.name: {"settings": v.settings, "options": v.options} for v in variants},
        "evidence": evidence.as_dict(),
        "split": locomo_split.report(
            by_sample, systems, [] if args.no_baselines else list(BASELINES)
        ),
        "off_topic": off_topic_summary(off_topic),
        "off_topic_timed": off_topic_summary(off_timed),
        "ingest": ingest,
        "systems": {
            name: {
                "by_category": le.summarize(rows[name]),
                "by_sample": {
                    sid: le.summarize(sample_rows[name])["overall"]
                    for sid, sample_rows in by_sample.items()
                },
                **(
                    {
                        "latency_ms": {
                            "p50": round(le.percentile(latency[name], 50), 1),
                            "p95": round(le.percentile(latency[name], 95), 1),
                            "searches": len(latency[name]),
                        }
                    }
                    if name in latency
                    else {}
                ),
            }
            for name in systems
        },
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "seconds": round(time.perf_counter() - t_start, 1),
    }
    return result


_WEIGHT_FIELDS = (
    "fusion",
    "w_semantic",
    "w_keyword",
    "w_graph",
    "w_strength",
    "w_quality",
    "w_usage",
    "w_context",
    "w_length",
    "search_candidates",
    "search_graph_seeds",
    "search_question_seeds",
    "search_floor",
    "search_floor_keyword",
    "search_floor_confident",
    "search_floor_relaxed",
    "search_floor_time",
    "search_time_unselective",
    "search_lifecycle",
    "search_full_turn",
    "w_role",
    "w_event",
    "search_gathering_frame",
    "w_feedback",
    "search_feedback_hits",
    "search_gathering_keyword",
    "search_turn_context",
    "turn_context_vectors",
)


def _variant_rg(rg: Recollect, v: Variant) -> Recollect:
    """Another facade on the same driver and model, with ``v``'s settings."""
    settings = Settings.model_validate({**rg.settings.model_dump(), **v.settings})
    return Recollect(rg.db, settings, embedder=rg.embedder, spacy=rg.spacy, server=rg.server)


# -- output ------------------------------------------------------------------------------------


def table(result: dict[str, Any]) -> str:
    systems = result["systems"]
    groups = [
        ("overall", "overall (1-4)"),
        *((str(c), f"{c} {le.CATEGORIES[c]}") for c in le.MAIN_CATEGORIES),
        ("5", f"5 {le.CATEGORIES[5]} (apart)"),
    ]
    head = f"{'category':<22} {'system':<36} {'n':>4}  {'R@1':>6} {'R@5':>6} {'R@10':>6}"
    head += f" {'NDCG@10':>8} {'MRR':>6}"
    lines = [head, "-" * len(head)]
    for key, label in groups:
        first = True
        for name, sysres in systems.items():
            m = sysres["by_category"].get(key)
            if not m:
                continue
            lines.append(
                f"{label if first else '':<22} {name:<36} {int(m['n']):>4}  {m['r@1']:>6.3f} "
                f"{m['r@5']:>6.3f} {m['r@10']:>6.3f} {m['ndcg@10']:>8.3f} {m['mrr']:>6.3f}"
            )
            first = False
    lines.append("")
    if "split" in result:
        lines += [*locomo_split.lines(result["split"]), ""]
    for name, sysres in systems.items():
        if "latency_ms" in sysres:
            lat = sysres["latency_ms"]
            lines.append(f"{name} search latency: p50 {lat['p50']} ms, p95 {lat['p95']} ms")
    lines += off_topic_lines(result)
    ev = result["evidence"]
    lines.append(
        f"evidence: {ev['ids_split_from_lists']} ids split from lists, {ev['ids_fixed']} fixed, "
        f"{ev['ids_dropped']} dropped (no such turn), {ev['questions_without_gold']} questions "
        "without gold skipped"
    )
    lines.append(
        f"store: {result['store']}; data: {result['data']['file']} "
        f"({', '.join(result['data']['samples'])}); commit {result['commit']}"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    bench_main(parse_args(argv), run, table, "locomo")


if __name__ == "__main__":
    main()
