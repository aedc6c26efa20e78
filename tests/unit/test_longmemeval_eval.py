"""LongMemEval parsing, split and scoring (benchmarks/longmemeval_eval.py) on a made-up fixture."""

from __future__ import annotations

import gzip
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from benchmarks import longmemeval as bench
from benchmarks import longmemeval_eval as lme

TINY = Path(__file__).resolve().parents[1] / "data" / "longmemeval_tiny.json"


@pytest.fixture(scope="module")
def questions() -> list[lme.Question]:
    return lme.load(TINY)


def test_dates() -> None:
    assert lme.parse_date("2023/05/21 (Sun) 19:50") == datetime(2023, 5, 21, 19, 50, tzinfo=UTC)
    assert lme.parse_date("2023/05/21") == datetime(2023, 5, 21, tzinfo=UTC)
    for bad in ("21/05/2023 (Sun) 19:50", "yesterday", ""):
        with pytest.raises(ValueError, match="not a LongMemEval date"):
            lme.parse_date(bad)


def test_haystack_parsed(questions: list[lme.Question]) -> None:
    q = questions[0]
    assert q.qid == "q-one" and q.qtype == "knowledge-update"
    # the second copy of session s1 is dropped; turn ids are session:index
    assert [s.sid for s in q.sessions] == ["s1", "s2", "answer_a"]
    assert [t.tid for _, t in q.turns][:3] == ["s1:0", "s1:1", "s2:0"]
    assert q.gold_turns == ["answer_a:0"]
    # an answer session that is not in the haystack cannot be found, so it is not gold
    assert q.answer_sessions == ("answer_a",)
    assert q.sessions[2].at == datetime(2023, 5, 20, 18, 45, tzinfo=UTC)


def test_gz_reads_the_same(tmp_path: Path, questions: list[lme.Question]) -> None:
    gz = tmp_path / "tiny.json.gz"
    with TINY.open("rb") as src, gzip.open(gz, "wb") as dst:
        shutil.copyfileobj(src, dst)
    assert lme.load(gz) == questions


def test_split_is_fixed_by_the_id_alone() -> None:
    ids = [f"question-{i}" for i in range(400)]
    halves = [lme.half(i) for i in ids]
    assert halves == [lme.half(i) for i in ids]  # deterministic
    assert 150 < halves.count("A") < 250  # about half each
    assert set(halves) == {"A", "B"}


def test_sample_per_type_is_nested(questions: list[lme.Question]) -> None:
    many = [
        lme.Question(
            qid=f"x{i}",
            qtype=lme.TYPES[i % 2],
            question="?",
            answer="",
            date=datetime(2023, 1, 1, tzinfo=UTC),
            sessions=(),
            answer_sessions=(),
            half=lme.half(f"x{i}"),
        )
        for i in range(60)
    ]
    one = lme.sample(many, per_type=1)
    three = lme.sample(many, per_type=3)
    assert len(one) == 4 and len(three) == 12  # 2 types x 2 halves
    assert {q.qid for q in one} <= {q.qid for q in three}
    only_a = lme.sample(many, halves=("A",))
    assert only_a and all(q.half == "A" for q in only_a)
    assert lme.sample(many, types=["multi-session"]) == []


def test_session_scores() -> None:
    ranked = ["s2:0", "s2:1", "a:3", None, "b:0", "c:1", "d:0", "e:0"]
    assert lme.session_ranking(ranked) == ["s2", "a", "b", "c", "d", "e"]
    m = lme.score_sessions(ranked, ["a", "e"])
    assert m["hit@5"] == 1.0  # a is 2nd
    assert m["all@5"] == 0.0  # e is 6th
    assert m["all@10"] == 1.0
    none = lme.score_sessions(ranked, ["zzz"])
    assert none == {"hit@5": 0.0, "all@5": 0.0, "hit@10": 0.0, "all@10": 0.0}


def test_question_scores_and_summary(questions: list[lme.Question]) -> None:
    q1, q2 = questions
    perfect = bench.score(["answer_a:0", "s1:0"], q1)
    assert perfect["r@10"] == 1.0 and perfect["ndcg@10"] == 1.0 and perfect["all@5"] == 1.0
    # both evidence turns of q2, but the second only at rank 11: turn metrics see the top 10
    ranked = ["t2:0", *(f"t2:{i}" for i in range(1, 10)), "t1:0"]
    half_found = bench.score(ranked, q2)
    assert half_found["r@10"] == 0.5
    assert half_found["all@5"] == 1.0  # the sessions are read from the whole ranking
    summary = bench.summarize([(q1, perfect), (q2, half_found)])
    assert summary["overall"]["n"] == 2
    assert summary["overall"]["r@10"] == 0.75
    assert summary["knowledge-update"]["r@10"] == 1.0
    assert summary[f"half {q1.half}"]["n"] >= 1


def test_asked_at_is_never_before_the_haystack(questions: list[lme.Question]) -> None:
    q1 = questions[0]
    assert q1.asked_at == q1.date  # every session is before the question
    late = lme.Question(
        qid="late",
        qtype="temporal-reasoning",
        question="?",
        answer="",
        date=datetime(2023, 5, 20, 18, 0, tzinfo=UTC),
        sessions=q1.sessions,  # the last one starts 18:45 with two turns
        answer_sessions=(),
    )
    assert late.asked_at == datetime(2023, 5, 20, 18, 47, tzinfo=UTC)


def test_the_lead_over_the_best_baseline_is_measured_per_half() -> None:
    def q(i: int, half: str) -> lme.Question:
        return lme.Question(
            f"q{i}", "multi-session", "?", "", datetime(2023, 5, 1, tzinfo=UTC), (), (), half
        )

    qs = [q(i, "A" if i < 30 else "B") for i in range(60)]

    def rows(r10: list[float], all5: list[float]) -> list[tuple[lme.Question, dict[str, float]]]:
        return [(x, {"r@10": a, "all@5": b}) for x, a, b in zip(qs, r10, all5, strict=True)]

    ours = rows([1.0] * 60, [1.0] * 30 + [0.0] * 30)
    bm25 = rows([0.5] * 60, [0.0] * 60)
    dense = rows([0.0] * 30 + [0.9] * 30, [1.0] * 60)
    leads = lme.margins({"ours": ours, "bm25": bm25, "dense": dense}, ["bm25", "dense", "rrf"])
    assert list(leads) == ["overall", "half A", "half B"]
    by = {(part, d["figure"]): d for part, ds in leads.items() for d in ds}
    # the best baseline is chosen per half and figure
    assert by[("half A", "r@10")]["best"] == "bm25" and by[("half A", "r@10")]["diff"] == 0.5
    assert by[("half B", "r@10")]["best"] == "dense"
    assert by[("half B", "r@10")]["diff"] == pytest.approx(0.1)
    assert by[("half B", "all@5")]["diff"] == -1.0 and by[("half B", "all@5")]["n"] == 30
    assert by[("half A", "all@5")]["p_not_better"] == 1.0  # level with dense: no lead
    assert lme.margins({"ours": ours}, ["bm25"]) == {}


def _dated(sid: str, day: int, answer: bool) -> lme.Session:
    return lme.Session(
        sid=sid,
        at=datetime(2023, 5, day, tzinfo=UTC),
        turns=(lme.Turn(tid=f"{sid}:0", role="user", text=sid, has_answer=answer),),
    )


def test_newest_first_reads_the_first_evidence_turn_ranked() -> None:
    old, new, other = _dated("old", 1, True), _dated("new", 20, True), _dated("x", 25, False)
    q = lme.Question(
        qid="ku",
        qtype="knowledge-update",
        question="How many followers do I have now?",
        answer="1300",
        date=datetime(2023, 6, 1, tzinfo=UTC),
        sessions=(old, new, other),
        answer_sessions=("old", "new"),
    )
    assert lme.newest_first(["x:0", "new:0", "old:0"], q) == 1.0
    assert lme.newest_first(["old:0", "new:0"], q) == 0.0
    assert lme.newest_first(["x:0"], q) == 0.0  # no evidence ranked
    one_date = lme.Question(**{**q.__dict__, "answer_sessions": ("new",)})
    assert lme.newest_first(["new:0"], one_date) is None
    # the figure is averaged over the questions it applies to only
    rows = [(q, bench.score(["new:0", "old:0"], q)), (one_date, bench.score(["new:0"], one_date))]
    summary = bench.summarize(rows)["knowledge-update"]
    assert (summary[bench.NEWEST], summary[f"{bench.NEWEST} n"]) == (1.0, 1)
