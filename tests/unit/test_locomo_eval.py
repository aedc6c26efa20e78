"""LoCoMo parsing and scoring (benchmarks/locomo_eval.py) on a tiny made-up fixture."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from pathlib import Path

import pytest

from benchmarks import locomo_eval as le

TINY = Path(__file__).resolve().parents[1] / "data" / "locomo_tiny.json"


@pytest.fixture(scope="module")
def convs() -> list[le.Conversation]:
    return le.load(TINY)


def test_session_dates() -> None:
    assert le.parse_session_datetime("1:56 pm on 8 May, 2023") == datetime(
        2023, 5, 8, 13, 56, tzinfo=UTC
    )
    assert le.parse_session_datetime("12:10 am on 1 July, 2023") == datetime(
        2023, 7, 1, 0, 10, tzinfo=UTC
    )
    assert le.parse_session_datetime("12:00 pm on 14 February, 2024").hour == 12
    assert le.parse_session_datetime("9:05 AM on 3 January 2024") == datetime(
        2024, 1, 3, 9, 5, tzinfo=UTC
    )
    for bad in ("8 May 2023", "1:56 pm on 8 Mai, 2023", ""):
        with pytest.raises(ValueError):
            le.parse_session_datetime(bad)


def test_evidence_ids() -> None:
    assert le.split_evidence(["D8:6; D9:17", "D1:2"]) == ["D8:6", "D9:17", "D1:2"]
    assert le.normalise_evidence_id("D:11:26") == "D11:26"
    assert le.normalise_evidence_id("D30:05") == "D30:5"
    assert le.normalise_evidence_id(" D3:4 ") == "D3:4"
    assert le.normalise_evidence_id("D") is None
    assert le.normalise_evidence_id("S1:2") is None


def test_sessions_in_number_order_with_dates_and_images(convs: list[le.Conversation]) -> None:
    a, b = convs
    assert [c.sample_id for c in convs] == ["tiny-1", "tiny-2"]
    assert a.speakers == ("Ada", "Bo")
    # session_3 has a date but no turns: it is not a session
    assert [s.n for s in a.sessions] == [1, 2]
    assert [t.dia_id for t in a.turns] == ["D1:1", "D1:2", "D1:3", "D2:1", "D2:2"]
    assert a.sessions[0].at == datetime(2024, 1, 3, 9, 5, tzinfo=UTC)
    assert a.sessions[1].at == datetime(2024, 2, 14, 12, 0, tzinfo=UTC)
    photo = a.turns[2]
    assert photo.text == "Look at this. [image: a grey cat sleeping on a laptop]"
    assert photo.indexed_text() == (
        "(9:05 am on 3 January, 2024) Ada: Look at this. [image: a grey cat sleeping on a laptop]"
    )
    assert [t.session for t in b.turns] == [1, 1, 1, 2]
    assert b.sessions[1].at == datetime(2023, 7, 1, 0, 10, tzinfo=UTC)


def test_gold_normalised_and_counted(convs: list[le.Conversation]) -> None:
    a, b = convs
    gold = {q.index: (q.category, q.gold) for q in a.questions}
    assert gold == {
        0: (4, ("D1:2", "D2:1")),  # "D1:2; D2:1" split
        1: (2, ("D1:1",)),  # "D:1:01" fixed
        2: (1, ("D2:2",)),  # "D2:02" fixed, "D9:9" names no turn
        # 3 has no evidence: skipped
        4: (5, ("D2:2",)),
        5: (4, ("D1:3",)),  # "D" dropped
    }
    assert a.questions[3].answer == "coffee"  # adversarial answer kept
    s = a.stats.as_dict()
    assert s["ids_split_from_lists"] == 1
    assert s["ids_fixed"] == 2
    assert s["ids_dropped"] == 2
    assert s["dropped"] == ["tiny-1 q2: D9:9", "tiny-1 q5: D"]
    assert s["questions_without_gold"] == 1
    assert [q.gold for q in b.questions] == [("D1:3",), ("D2:1",)]  # duplicate id once
    total = le.EvidenceStats()
    for c in convs:
        total.add(c.stats)
    assert (total.fixed, len(total.dropped), total.no_gold) == (2, 2, 1)


def test_load_subset_and_missing_sample() -> None:
    assert [c.sample_id for c in le.load(TINY, ["tiny-2"])] == ["tiny-2"]
    with pytest.raises(ValueError, match="tiny-9"):
        le.load(TINY, ["tiny-2", "tiny-9"])


def test_tokenize() -> None:
    assert le.tokenize("(8 May, 2023) Ada: Pixel's cello!") == [
        "8",
        "may",
        "2023",
        "ada",
        "pixel",
        "s",
        "cello",
    ]
    # spaCy's English stop words go ("when", "did", "the", "to" and also "move")
    assert le.tokenize("When did the cat's owner move to Oslo?", stop_words=True) == [
        "cat",
        "s",
        "owner",
        "oslo",
    ]


def test_metrics_by_hand() -> None:
    gold = ["D1:2", "D2:1"]
    ranked: list[str | None] = ["D2:1", "X", "D1:2", "Y"]
    m = le.score_ranking(ranked, gold)
    assert m["r@1"] == 0.5
    assert m["r@5"] == 1.0
    assert m["r@10"] == 1.0
    # DCG = 1/log2(2) + 1/log2(4) = 1.5; IDCG = 1 + 1/log2(3) = 1.63093
    assert m["ndcg@10"] == pytest.approx(1.5 / 1.6309298, abs=1e-6)
    assert m["ndcg@10"] == pytest.approx(0.919721, abs=1e-6)
    assert m["mrr"] == 1.0

    m = le.score_ranking(["A", "B", "G"], ["G"])
    assert (m["r@1"], m["r@5"], m["r@10"]) == (0.0, 1.0, 1.0)
    assert m["ndcg@10"] == pytest.approx(0.5)  # 1/log2(4)
    assert m["mrr"] == pytest.approx(1 / 3)

    # one of three gold ids, at rank 10: DCG = 1/log2(11) = 0.289065; IDCG = 2.130930
    ranked = [*(f"N{i}" for i in range(9)), "G1", "G2"]
    m = le.score_ranking(ranked, ["G1", "G2", "G3"])
    assert (m["r@1"], m["r@5"]) == (0.0, 0.0)
    assert m["r@10"] == pytest.approx(1 / 3)
    assert m["ndcg@10"] == pytest.approx(0.135652, abs=1e-6)
    assert m["mrr"] == pytest.approx(0.1)

    # repeated ids and hits without an id
    m = le.score_ranking(["G", "G", None, "H"], ["G", "H"])
    assert m["r@1"] == 0.5
    # after dedupe: G (1), None (2), H (3): DCG = 1 + 0.5, IDCG = 1.63093
    assert m["ndcg@10"] == pytest.approx(0.919721, abs=1e-6)

    m = le.score_ranking([], ["G"])
    assert m == {"r@1": 0.0, "r@5": 0.0, "r@10": 0.0, "ndcg@10": 0.0, "mrr": 0.0}
    with pytest.raises(ValueError):
        le.recall_at(["G"], [], 1)


def test_summarize_by_category() -> None:
    def row(r1: float, r10: float, mrr: float) -> dict[str, float]:
        return {"r@1": r1, "r@5": r10, "r@10": r10, "ndcg@10": r10, "mrr": mrr}

    s = le.summarize(
        [
            (1, row(1.0, 1.0, 1.0)),
            (1, row(0.0, 0.5, 0.25)),
            (2, row(0.0, 0.0, 0.0)),
            (4, row(1.0, 1.0, 1.0)),
            (5, row(0.0, 1.0, 0.5)),
        ]
    )
    assert list(s) == ["1", "2", "4", "5", "overall"]
    assert s["1"] == {"r@1": 0.5, "r@5": 0.75, "r@10": 0.75, "ndcg@10": 0.75, "mrr": 0.625, "n": 2}
    assert s["5"]["n"] == 1
    # overall: categories 1-4 only, 4 questions
    assert s["overall"]["n"] == 4
    assert s["overall"]["r@1"] == 0.5
    assert s["overall"]["r@10"] == 0.625  # (1 + 0.5 + 0 + 1) / 4
    assert s["overall"]["mrr"] == 0.5625  # (1 + 0.25 + 0 + 1) / 4


def test_percentile_and_rrf() -> None:
    values = [float(v) for v in range(1, 21)]
    assert le.percentile(values, 50) == 10.0
    assert le.percentile(values, 95) == 19.0
    assert le.percentile(values, 100) == 20.0
    assert le.percentile([], 50) == 0.0
    # a: 1/61 + 1/63 = 0.032266; b: 1/62 + 1/61 = 0.032522; c: 1/63 + 1/62 = 0.032002
    assert le.rrf([["a", "b", "c"], ["b", "c", "a"]]) == ["b", "a", "c"]
    assert le.rrf([["a", "b", "c"], ["b", "c", "a"]], limit=1) == ["b"]
    assert math.isclose(1 / 61 + 1 / 62, 0.032522, abs_tol=1e-6)
