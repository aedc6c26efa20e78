"""The fixed split of the LoCoMo dev file, and each system's figures on both halves, with intervals.

Changes to search are decided on the **tuning** conversations; the **held-out** ones are read
only as aggregate figures, so they say how a change carries to conversations it was not fitted
on (issue 21). The split was fixed when tuning began and must not move: conversations are
whole units (a speaker's habits run through all of their questions).

Every figure comes with its 95% bootstrap interval over questions (:mod:`benchmarks.stats`),
and every variant of our search (``--weights``) and the best baseline are compared with ``ours``
question by question on the same questions (a paired bootstrap).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from benchmarks.stats import difference_text, interval_text, mean_interval, paired_difference
from recollect_graph.analysis import locomo_eval as le

#: The split of the dev file (``../shared/data/locomo-dev.json``): fixed, never tuned on held_out.
SPLIT: dict[str, tuple[str, ...]] = {
    "tuning": ("conv-26", "conv-30", "conv-41"),
    "held_out": ("conv-42", "conv-43"),
}
#: The figures given an interval, and compared between systems.
FIGURES = ("r@10", "ndcg@10")
#: Per-question rows of one system: ``(category, metrics)``.
Rows = list[tuple[int, dict[str, float]]]


def split_of(sample_id: str) -> str:
    """``tuning``, ``held_out`` or ``other`` (a conversation outside the dev file's split)."""
    for name, samples in SPLIT.items():
        if sample_id in samples:
            return name
    return "other"


def _parts(by_sample: Mapping[str, Mapping[str, Rows]]) -> dict[str, list[str]]:
    """The groups reported: every split that has conversations in this run, and ``all``."""
    parts: dict[str, list[str]] = {}
    for sid in by_sample:
        parts.setdefault(split_of(sid), []).append(sid)
    return {"all": list(by_sample), **parts}


def _values(rows: Rows, figure: str) -> list[float]:
    return [m[figure] for cat, m in rows if cat in le.MAIN_CATEGORIES]


def report(
    by_sample: Mapping[str, Mapping[str, Rows]], systems: Sequence[str], baselines: Sequence[str]
) -> dict[str, Any]:
    """Each system's figures per split, and the paired comparisons with ``ours``.

    Args:
        by_sample: ``{sample_id: {system: rows}}``, every system's rows in the same question
            order within a sample.
        systems: Every system of the run (``ours``, its variants, the baselines).
        baselines: Those of ``systems`` that are baselines.

    Returns:
        ``{"split": SPLIT, "parts": {part: {system: {...}}}, "comparisons": {part: [...]}}``.
    """
    parts: dict[str, dict[str, Any]] = {}
    comparisons: dict[str, list[dict[str, Any]]] = {}
    for part, samples in _parts(by_sample).items():
        rows = {s: [r for sid in samples for r in by_sample[sid][s]] for s in systems}
        parts[part] = {
            s: {
                "samples": samples,
                "by_category": le.summarize(rows[s]),
                **{f: mean_interval(_values(rows[s], f)) for f in FIGURES},
            }
            for s in systems
        }
        if "ours" not in rows:
            continue
        others = [s for s in systems if s != "ours" and s not in baselines]
        best = max(baselines, key=lambda b: parts[part][b]["r@10"]["mean"], default=None)
        pairs = [(s, "ours") for s in others] + ([("ours", best)] if best else [])
        comparisons[part] = [
            {
                "first": a,
                "second": b,
                **{f: paired_difference(_values(rows[a], f), _values(rows[b], f)) for f in FIGURES},
            }
            for a, b in pairs
        ]
    return {"split": SPLIT, "parts": parts, "comparisons": comparisons}


def lines(split: Mapping[str, Any]) -> list[str]:
    """The split's table and comparisons, for the printed report."""
    label = {"all": "every conversation", "tuning": "tuning", "held_out": "held out"}
    head = (
        f"{'split (categories 1-4)':<22} {'system':<36} {'n':>4}  {'R@10 [95% CI]':<22} "
        f"{'NDCG@10 [95% CI]':<22} {'multi-hop R@10':>14}"
    )
    out = [head, "-" * len(head)]
    for part, systems in split["parts"].items():
        first = True
        for name, fig in systems.items():
            hop = fig["by_category"].get("1", {}).get("r@10")
            out.append(
                f"{label.get(part, part) if first else '':<22} {name:<36} "
                f"{fig['r@10']['n']:>4}  {interval_text(fig['r@10']):<22} "
                f"{interval_text(fig['ndcg@10']):<22} "
                f"{'' if hop is None else f'{hop:.3f}':>14}"
            )
            first = False
    out.append("")
    out.append("paired, same questions (first - second: mean, 95% CI, p = share of draws <= 0)")
    for part, pairs in split["comparisons"].items():
        for c in pairs:
            out.append(
                f"{label.get(part, part)}: {c['first']} - {c['second']}: "
                f"R@10 {difference_text(c['r@10'])}; NDCG@10 {difference_text(c['ndcg@10'])}"
            )
    fixed = "; ".join(f"{k}: {', '.join(v)}" for k, v in SPLIT.items())
    out.append(f"split (fixed): {fixed}; held-out figures are read, never tuned on")
    return out
