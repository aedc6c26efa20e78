"""LongMemEval_S retrieval: our search next to BM25, dense cosine and RRF, per question type.

Each question's haystack (~50 chat sessions, ~500 turns) is stored the way a user stores chat
history, through the public API, in a scope of its own (``lme-<question_id>-<runid>``): every
haystack session becomes a session of ordered turns (``rg.sessions.add_turns``; speaker = the
turn's role, ``at`` = the session's date plus a minute per turn; turn id ``"<session id>:<i>"``).
Every haystack is stored first, so each question is searched in a store of many scopes. The
question is searched with ``rg.search`` in its scope (``touch=False``), as of the moment it was
asked (``valid_at`` = its ``question_date``, or its last turn when a session is dated later, as
36 of the 231 dev questions have; so "four weeks ago" means four weeks before that;
``--real-now`` searches as of today) and scored from the hits' ``source_id``:

- turn level, on the ``has_answer`` turns: Recall@5/10, NDCG@10 and MRR of the top 10;
- session level, on ``answer_session_ids``: the hits read as a ranking of their sessions (first
  occurrence), Hit@5 (``recall_any``) and All@5 / All@10 (``recall_all``).

The baselines run in the same invocation over the same turns: ``bm25`` (rank_bm25 ``BM25Okapi``,
lowercase word tokens, spaCy's English stop words left out, each turn indexed as
``"(session date) role: text"``), ``dense`` (cosine of exactly the vectors the store holds: the
text ``add_turns`` embeds, same model and backend) and ``rrf`` (equal-weight reciprocal rank
fusion, k = 60, of the two). Every system returns ``--limit`` turns (default 50).

The split is fixed by the question id (:func:`benchmarks.longmemeval_eval.half`: SHA-1, halves A
and B); every figure is reported per half as well as overall. ``--per-type N`` takes the first N
questions of each type in each half (SHA-1 order), so a larger sample holds every smaller one.

Turn vectors are cached on disk (``--embed-cache``, keyed by model, backend and text: the same
vectors the model would give, made once), so a second run with other variants embeds only the
questions. Query embedding is never cached. Before storing, the turns not yet cached are embedded
longest first in large batches (``warmed`` in the result): about twice as fast as the store's
per-session batches, for a model's first run.

Run: ``.venv/bin/python benchmarks/longmemeval.py --data PATH/longmemeval_s.json.gz``
(needs ``pip install -e '.[bench]'`` for ``rank_bm25``).
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import re
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import longmemeval_eval as lme
from benchmarks.embed_cache import DEFAULT_CACHE, CachedEmbedder
from benchmarks.locomo import _WEIGHT_FIELDS, OFF_TOPIC, OFF_TOPIC_TIMED, Variant, _variant_rg
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
from benchmarks.stats import difference_text
from recollect_graph import Recollect
from recollect_graph.analysis import locomo_eval as le
from recollect_graph.services.sessions.index import turn_embed_text

ROOT = Path(__file__).resolve().parents[1]
BASELINES = ("bm25", "dense", "rrf")
TURN_SPACING = timedelta(minutes=1)
TURN_METRICS = ("r@5", "r@10", "ndcg@10", "mrr")
SESSION_METRICS = ("hit@5", "all@5", "all@10")
#: Whether the first evidence turn is from the newest evidence session (:func:`lme.newest_first`).
NEWEST = "newest@1"


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--data", type=Path, required=True, help="a LongMemEval JSON file (.gz ok)")
    ap.add_argument(
        "--per-type", type=int, default=None, help="first N questions per type and half"
    )
    ap.add_argument("--half", choices=("A", "B"), default=None, help="one half of the split")
    ap.add_argument("--types", default=None, help="comma-separated question types")
    ap.add_argument(
        "--match",
        default=None,
        metavar="REGEX",
        help="only the questions whose text matches REGEX (case-insensitive)",
    )
    ap.add_argument(
        "--weights",
        action="append",
        default=[],
        metavar="K=V,...",
        help="an extra variant of ours (as in benchmarks/locomo.py); repeatable",
    )
    ap.add_argument("--limit", type=int, default=50, help="turns per search (default 50)")
    ap.add_argument(
        "--real-now",
        action="store_true",
        help="search as of now, not as of each question's date (its time words then point "
        "at the wrong weeks)",
    )
    ap.add_argument(
        "--recall",
        action="store_true",
        help="also rank sessions with rg.recall (session metrics only, system 'recall')",
    )
    add_output_options(ap)
    ap.add_argument(
        "--embed-cache",
        type=Path,
        default=DEFAULT_CACHE,
        help=f"turn vector cache folder (default {DEFAULT_CACHE})",
    )
    ap.add_argument("--no-embed-cache", action="store_true", help="embed every turn afresh")
    add_store_options(ap, "haystacks")
    return ap.parse_args(argv)


# -- storing and baselines ---------------------------------------------------------------------


def session_turns(q: lme.Question) -> list[tuple[str, list[dict[str, Any]]]]:
    """Each haystack session of ``q`` as (session id, the turns ``add_turns`` takes)."""
    out = []
    for s in q.sessions:
        turns = [
            {
                "id": t.tid,
                "speaker": t.role,
                "role": t.role,
                "text": t.text,
                "at": s.at + i * TURN_SPACING,
            }
            for i, t in enumerate(s.turns)
            if t.text.strip()
        ]
        if turns:
            out.append((f"{q.qid}-{s.sid}", turns))
    return out


def stored_turns(q: lme.Question) -> int:
    """How many turns :func:`store_question` stores for ``q`` (``--reuse``)."""
    return sum(len(turns) for _, turns in session_turns(q))


def store_question(rg: Recollect, q: lme.Question, scope: str) -> int:
    """Store every haystack session of ``q`` in ``scope``; returns the number of turns."""
    n = 0
    for sid, turns in session_turns(q):
        rg.sessions.add_turns(sid, turns, scope_id=scope, owner_id="lme")
        n += len(turns)
    return n


class Baselines:
    """BM25, dense cosine (the stored vectors) and RRF over one question's haystack."""

    def __init__(self, rg: Recollect, q: lme.Question) -> None:
        from rank_bm25 import BM25Okapi  # type: ignore[import-untyped]

        pairs = [(s, t) for s, t in q.turns if t.text.strip()]
        self.ids = [t.tid for _, t in pairs]
        self.bm25 = BM25Okapi(
            [le.tokenize(f"({s.at:%Y/%m/%d}) {t.role}: {t.text}", True) for s, t in pairs]
        )
        texts = [turn_embed_text(t.role, t.role, t.text) for _, t in pairs]
        self.docs: npt.NDArray[np.float32] = _unit(rg.embedder.embed(texts))
        self.query: npt.NDArray[np.float32] = _unit(rg.embedder.embed_queries([q.question]))[0]
        self.question = q.question

    def _order(self, scores: npt.NDArray[np.float64]) -> list[str]:
        return [self.ids[i] for i in np.argsort(-scores, kind="stable")]

    def rankings(self, limit: int) -> dict[str, list[str]]:
        bm = self._order(np.asarray(self.bm25.get_scores(le.tokenize(self.question, True))))
        dense = self._order((self.docs @ self.query).astype(np.float64))
        return {
            "bm25": bm[:limit],
            "dense": dense[:limit],
            "rrf": le.rrf([bm, dense], k=60, limit=limit),
        }


def score(ranked: Sequence[str | None], q: lme.Question) -> dict[str, float]:
    """Turn metrics of the top 10 and session metrics of the whole ranking."""
    turn = le.score_ranking(list(ranked)[:10], q.gold_turns)
    out = {k: turn[k] for k in TURN_METRICS}
    out.update(lme.score_sessions(ranked, q.answer_sessions))
    newest = lme.newest_first(ranked, q)
    if newest is not None:
        out[NEWEST] = newest
    return out


def summarize(rows: Sequence[tuple[lme.Question, dict[str, float]]]) -> dict[str, Any]:
    """Means overall, per half, per type and per type within each half."""
    groups: dict[str, list[dict[str, float]]] = {}
    for q, m in rows:
        for key in ("overall", f"half {q.half}", q.qtype, f"{q.qtype} / {q.half}"):
            groups.setdefault(key, []).append(m)
    out: dict[str, Any] = {}
    for key, ms in groups.items():
        out[key] = {
            name: round(sum(m[name] for m in ms) / len(ms), 4)
            for name in (*TURN_METRICS, *SESSION_METRICS)
            if name in ms[0]
        }
        out[key]["n"] = len(ms)
        dated = [m[NEWEST] for m in ms if NEWEST in m]
        if dated:  # the questions whose evidence was stated at two times or more
            out[key][NEWEST] = round(sum(dated) / len(dated), 4)
            out[key][f"{NEWEST} n"] = len(dated)
    return out


# -- the run -----------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> dict[str, Any]:
    questions = lme.sample(
        lme.load(args.data),
        per_type=args.per_type,
        halves=(args.half,) if args.half else ("A", "B"),
        types=args.types.split(",") if args.types else None,
    )
    if args.match:
        try:
            wanted = re.compile(args.match, re.IGNORECASE)
        except re.error as e:
            raise SystemExit(f"--match is not a regular expression: {e}") from e
        questions = [q for q in questions if wanted.search(q.question)]
    if not questions:
        raise SystemExit("no question matches --half / --types / --match")
    variants = [Variant(), *(Variant(w) for w in args.weights)]
    systems = [v.name for v in variants] + ([] if args.no_baselines else list(BASELINES))
    systems += ["recall"] if args.recall else []
    runid = run_id(args)
    rows: dict[str, list[tuple[lme.Question, dict[str, float]]]] = {s: [] for s in systems}
    latency: dict[str, list[float]] = {v.name: [] for v in variants}
    if args.recall:
        latency["recall"] = []
    hits_returned: dict[str, list[int]] = {v.name: [] for v in variants}
    off_topic: dict[str, list[int]] = {v.name: [] for v in variants}
    off_timed: dict[str, list[int]] = {v.name: [] for v in variants}
    details: list[dict[str, Any]] = []
    t_start = time.perf_counter()
    n_turns = 0
    with open_store(args) as settings, Recollect.open(settings) as base_rg:
        cached = CachedEmbedder(base_rg.embedder, None if args.no_embed_cache else args.embed_cache)
        rg = Recollect(base_rg.db, base_rg.settings, embedder=cached, spacy=base_rg.spacy)
        engines = [(v, _variant_rg(rg, v) if v.settings else rg) for v in variants]
        warmed = (0, 0.0)
        if cached.folder is not None and not args.reuse:
            turn_texts = [
                turn_embed_text(t.role, t.role, t.text) for q in questions for _, t in q.turns
            ]
            warmed = cached.warm(turn_texts)
        cached.caching = True
        t0 = time.perf_counter()
        for i, q in enumerate(questions):
            scope = f"lme-{q.qid}-{runid}"
            n_turns += stored_turns(q) if args.reuse else store_question(rg, q, scope)
            if (i + 1) % 5 == 0 or i + 1 == len(questions):
                secs = time.perf_counter() - t0
                log(f"stored {i + 1}/{len(questions)} haystacks, {n_turns} turns, {secs:.0f} s")
                cached.save()
        ingest_s = time.perf_counter() - t0
        bases = {} if args.no_baselines else {q.qid: Baselines(rg, q) for q in questions}
        cached.save()
        cached.caching = False
        for i, q in enumerate(questions):
            scope = f"lme-{q.qid}-{runid}"
            ranked: dict[str, list[str | None]] = {}
            for v, engine in engines:
                t0 = time.perf_counter()
                hits = engine.search(
                    q.question,
                    scope_id=scope,
                    limit=args.limit,
                    touch=False,
                    valid_at=None if args.real_now else q.asked_at,
                    **v.options,
                )
                latency[v.name].append((time.perf_counter() - t0) * 1000)
                hits_returned[v.name].append(len(hits))
                ranked[v.name] = [h.entry.source_id for h in hits]
            if q.qid in bases:
                for name, ids in bases[q.qid].rankings(args.limit).items():
                    ranked[name] = list(ids)
            for name, r in ranked.items():
                rows[name].append((q, score(r, q)))
            if args.recall:
                t0 = time.perf_counter()
                res = rg.recall(
                    q.question, scope_id=scope, limit=10, touch=False, valid_at=q.asked_at
                )
                latency["recall"].append((time.perf_counter() - t0) * 1000)
                order = [c.session_id.removeprefix(f"{q.qid}-") for c in res.candidates]
                rows["recall"].append((q, lme.score_session_order(order, q.answer_sessions)))
            details.append(
                {
                    "qid": q.qid,
                    "type": q.qtype,
                    "half": q.half,
                    "question": q.question,
                    "gold_turns": q.gold_turns,
                    "gold_sessions": list(q.answer_sessions),
                    "ranked": ranked,
                }
            )
            if (i + 1) % 10 == 0 or i + 1 == len(questions):
                log(f"searched {i + 1}/{len(questions)}")
        for v, engine in engines:
            for q in questions[:8]:
                for off, into, at in [(o, off_topic, None) for o in OFF_TOPIC[:2]] + [
                    (o, off_timed, q.asked_at) for o in OFF_TOPIC_TIMED[:2]
                ]:
                    found = engine.search(
                        off,
                        scope_id=f"lme-{q.qid}-{runid}",
                        limit=10,
                        touch=False,
                        valid_at=at,
                        **v.options,
                    )
                    into[v.name].append(len(found))
        if args.uri and not args.keep and not args.reuse:
            drop_scopes(rg, [f"lme-{q.qid}-{runid}" for q in questions])
        used = {k: getattr(rg.settings, k) for k in _WEIGHT_FIELDS}
        model, backend = rg.embedder.model_id, rg.embedder.backend
    write_details(args.details, details)
    return {
        "benchmark": "longmemeval_s retrieval (turn and session level)",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": git_commit(),
        "data": {
            "file": args.data.name,
            "sha256": hashlib.sha256(args.data.read_bytes()).hexdigest()[:16],
            "questions": len(questions),
            "per_type": args.per_type,
            "half": args.half,
            "turns": n_turns,
            "searched_as_of": "now" if args.real_now else "question_date or last turn (valid_at)",
            "split": "half = A if sha1(question_id)[0] < 128 else B",
        },
        "search": {
            "limit": args.limit,
            "touch": False,
            "settings": used,
            "model": model,
            "backend": backend,
        },
        "variants": {v.name: {"settings": v.settings, "options": v.options} for v in variants},
        "ingest": {
            "seconds": round(ingest_s, 1),
            "turns_per_s": round(n_turns / ingest_s, 1) if ingest_s else None,
            "embedded_afresh": cached.misses - warmed[0],
            "warmed": {"texts": warmed[0], "seconds": round(warmed[1], 1)},
        },
        "off_topic": off_topic_summary(off_topic),
        "off_topic_timed": off_topic_summary(off_timed),
        "margins": lme.margins(rows, [b for b in BASELINES if b in rows]),
        "systems": {
            name: {
                "summary": summarize(rows[name]),
                **(
                    {
                        "latency_ms": {
                            "p50": round(le.percentile(latency[name], 50), 1),
                            "p95": round(le.percentile(latency[name], 95), 1),
                            "searches": len(latency[name]),
                        },
                        **(
                            {"mean_hits": round(sum(n) / len(n), 1)}
                            if (n := hits_returned.get(name))
                            else {}
                        ),
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


# -- output ------------------------------------------------------------------------------------


def table(result: dict[str, Any]) -> str:
    """Turn R@10 / NDCG@10 and session Hit@5 / All@5 / All@10 per group and system."""
    systems = result["systems"]
    first = next(iter(systems.values()))["summary"]
    keys = ["overall", "half A", "half B", *(t for t in lme.TYPES if t in first)]
    head = f"{'group':<28} {'system':<34} {'n':>4}  {'R@10':>6} {'NDCG':>6}"
    head += f" {'Hit@5':>6} {'All@5':>6} {'All@10':>6}"
    lines = [head, "-" * len(head)]
    for key in keys:
        label = key
        for name, res in systems.items():
            m = res["summary"].get(key)
            if not m:
                continue
            turn = (
                f"{m['r@10']:>6.3f} {m['ndcg@10']:>6.3f}" if "r@10" in m else f"{'-':>6} {'-':>6}"
            )
            lines.append(
                f"{label:<28} {name:<34} {int(m['n']):>4}  {turn}"
                f" {m['hit@5']:>6.3f} {m['all@5']:>6.3f} {m['all@10']:>6.3f}"
            )
            label = ""
    lines.append("")
    ku = "knowledge-update"
    for name, res in systems.items():
        m = res["summary"].get(ku, {})
        if NEWEST in m:
            lines.append(
                f"{name}: newest evidence first on {int(m[NEWEST + ' n'])} {ku} questions: "
                f"{m[NEWEST]:.3f}"
            )
    lines.append("")
    for part, leads in result.get("margins", {}).items():
        for d in leads:
            lines.append(
                f"{part}: ours - {d['best']} (the best baseline), {d['figure']}: "
                f"{difference_text(d)} over {d['n']} questions"
            )
    lines.append("")
    for name, res in systems.items():
        if "latency_ms" in res:
            lat = res["latency_ms"]
            hits = f", {res['mean_hits']} hits per search" if "mean_hits" in res else ""
            lines.append(f"{name}: p50 {lat['p50']} ms, p95 {lat['p95']} ms{hits}")
    lines += off_topic_lines(result)
    ing = result["ingest"]
    lines.append(
        f"ingest: {result['data']['turns']} turns in {ing['seconds']} s "
        f"({ing['embedded_afresh']} embedded afresh; {ing['warmed']['texts']} turns embedded "
        f"before, in {ing['warmed']['seconds']} s); commit {result['commit']}"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    bench_main(parse_args(argv), run, table, "longmemeval")


if __name__ == "__main__":
    main()
