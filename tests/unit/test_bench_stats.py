"""Bootstrap intervals of the benchmarks and the fixed LoCoMo split (no database)."""

from __future__ import annotations

import pytest

from benchmarks import locomo_split
from benchmarks.stats import difference_text, interval_text, mean_interval, paired_difference


def test_an_interval_holds_its_mean_and_narrows_with_more_questions() -> None:
    few = mean_interval([1.0, 0.0] * 20)
    many = mean_interval([1.0, 0.0] * 500)
    assert few["mean"] == many["mean"] == 0.5
    assert few["lo"] < 0.5 < few["hi"]
    assert (many["hi"] - many["lo"]) < (few["hi"] - few["lo"]) / 3
    # 40 coin flips: the standard error is 0.079, so the 95% interval spans about 0.3
    assert 0.22 < few["hi"] - few["lo"] < 0.4
    # the same seed gives the same interval: a report can be reproduced
    assert mean_interval([1.0, 0.0] * 20) == few
    assert mean_interval([0.7] * 30) == {"mean": 0.7, "lo": 0.7, "hi": 0.7, "n": 30}
    assert mean_interval([])["n"] == 0
    assert interval_text(few).startswith("0.500 [")


def test_a_paired_difference_sees_a_steady_lead_that_unpaired_intervals_blur() -> None:
    # question difficulty varies a lot; the first system is better by 0.05 on every question
    base = [0.1 * (i % 10) for i in range(200)]
    better = [min(1.0, b + 0.05) for b in base]
    d = paired_difference(better, base)
    assert d["diff"] == pytest.approx(0.05)
    assert 0 < d["lo"] <= d["diff"] <= d["hi"] and d["p_not_better"] == 0.0
    # each system's own interval overlaps the other's: only the pairing shows the lead
    a, b = mean_interval(better), mean_interval(base)
    assert a["lo"] < b["hi"]
    # no difference at all: no lead, p = 1
    same = paired_difference(base, base)
    assert same["diff"] == same["lo"] == same["hi"] == 0.0 and same["p_not_better"] == 1.0
    assert difference_text(d).startswith("+0.050 [+")


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="3 values against 2"):
        paired_difference([1.0, 0.0, 1.0], [1.0, 0.0])
    with pytest.raises(ValueError, match="level"):
        mean_interval([1.0], level=1.5)
    with pytest.raises(ValueError, match="resamples"):
        mean_interval([1.0], resamples=0)


def _row(cat: int, r10: float) -> tuple[int, dict[str, float]]:
    return cat, {"r@1": 0.0, "r@5": r10, "r@10": r10, "ndcg@10": r10 / 2, "mrr": 0.0}


def test_the_split_reports_both_halves_and_compares_with_the_best_baseline() -> None:
    assert locomo_split.split_of("conv-26") == "tuning"
    assert locomo_split.split_of("conv-43") == "held_out"
    assert locomo_split.split_of("conv-50") == "other"
    by_sample = {
        "conv-26": {
            "ours": [_row(1, 1.0), _row(4, 1.0)],
            "ours[w_graph=0]": [_row(1, 0.0), _row(4, 1.0)],
            "bm25": [_row(1, 0.0), _row(4, 0.0)],
            "rrf": [_row(1, 1.0), _row(4, 0.0)],
        },
        "conv-42": {
            "ours": [_row(2, 1.0), _row(5, 1.0)],  # category 5 is reported apart, never counted
            "ours[w_graph=0]": [_row(2, 1.0), _row(5, 0.0)],
            "bm25": [_row(2, 1.0), _row(5, 0.0)],
            "rrf": [_row(2, 0.0), _row(5, 1.0)],
        },
    }
    systems = ["ours", "ours[w_graph=0]", "bm25", "rrf"]
    rep = locomo_split.report(by_sample, systems, ["bm25", "rrf"])
    assert list(rep["parts"]) == ["all", "tuning", "held_out"]
    tuning, held = rep["parts"]["tuning"], rep["parts"]["held_out"]
    assert tuning["ours"]["r@10"]["mean"] == 1.0 and tuning["rrf"]["r@10"]["mean"] == 0.5
    assert held["ours"]["r@10"]["n"] == 1
    assert tuning["ours"]["by_category"]["1"]["r@10"] == 1.0
    # the variant against ours, and ours against the best baseline of that part
    pairs = {(c["first"], c["second"]) for c in rep["comparisons"]["tuning"]}
    assert pairs == {("ours[w_graph=0]", "ours"), ("ours", "rrf")}
    held_best = [c for c in rep["comparisons"]["held_out"] if c["first"] == "ours"]
    assert held_best[0]["second"] == "bm25"
    text = "\n".join(locomo_split.lines(rep))
    assert "held out" in text and "ours - rrf: R@10 +0.500" in text
    assert "split (fixed): tuning: conv-26, conv-30, conv-41; held_out: conv-42, conv-43" in text
