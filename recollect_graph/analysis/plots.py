"""matplotlib plots of search results.

Example:
    >>> from recollect_graph.analysis.plots import score_breakdown
    >>> ax = score_breakdown(rg.search("how is Neo4j started?", scope_id="demo"))  # doctest: +SKIP
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from recollect_graph.models import Hit
from recollect_graph.settings import Settings

#: Each signal and the settings weight that scales it in the final score (``brevity`` and
#: ``role`` lower it: :data:`LOWERS`).
SIGNAL_WEIGHTS: dict[str, str] = {
    "semantic": "w_semantic",
    "keyword": "w_keyword",
    "graph": "w_graph",
    "strength": "w_strength",
    "quality": "w_quality",
    "usage": "w_usage",
    "context": "w_context",
    "session": "w_session",
    "brevity": "w_length",
    "role": "w_role",
    "feedback": "w_feedback",
    "event": "w_event",
    "named": "w_name",
    "latest": "w_latest",
}
#: The signals that lower a score (drawn left of zero).
LOWERS = ("brevity", "role")
#: A colour per signal (matplotlib's tab10, then tab20's light blue, in a fixed order so every
#: plot agrees).
SIGNAL_COLOURS = dict(
    zip(
        SIGNAL_WEIGHTS,
        [
            "#1f77b4",
            "#ff7f0e",
            "#2ca02c",
            "#9467bd",
            "#8c564b",
            "#e377c2",
            "#17becf",
            "#bcbd22",
            "#7f7f7f",
            "#d62728",
            "#aec7e8",
            "#ffbb78",
            "#98df8a",
            "#ff9896",
        ],
        strict=True,
    )
)


def _plt() -> Any:
    try:
        return importlib.import_module("matplotlib.pyplot")
    except ImportError as e:
        raise ImportError(
            "plots need matplotlib: pip install 'recollect-graph[notebooks]' (or matplotlib)"
        ) from e


#: The signals of a hit's relevance.
RELEVANCE = ("semantic", "keyword", "feedback")
#: The signals that add their weight of that relevance (``w_event``, ``w_name``, ``w_latest``).
LIFTS = ("event", "named", "latest")
#: The signals that multiply the relevance core (``search_lifecycle="multiply"``).
LIFECYCLE = ("strength", "quality", "usage")


def contributions(hit: Hit, settings: Settings | None = None) -> dict[str, float]:
    """What each signal added to a hit's score (weighted fusion; brevity and role negative).

    The relevance signals add their value times their weight to the core (``event``, ``named``
    and ``latest`` their weight times the relevance, when the hit is a turn that reports an
    event or, for a question asking who or where, names someone or somewhere, or for a question
    about the current state of something, by its place in time: the newest in full); with
    ``search_lifecycle="multiply"`` (the default) a lifecycle signal adds ``core x weight x
    value``, so the parts sum to the score; with ``"add"`` it adds ``weight x value``.
    """
    s = settings or Settings()
    values = hit.signals.model_dump()
    out = {
        name: values[name] * float(getattr(s, weight)) for name, weight in SIGNAL_WEIGHTS.items()
    }
    for name in LOWERS:
        out[name] = -out[name]
    rel = max(0.0, sum(out[name] for name in RELEVANCE))
    for name in LIFTS:  # their weight of the relevance
        out[name] *= rel
    if s.search_lifecycle == "multiply":
        core = max(0.0, sum(v for name, v in out.items() if name not in LIFECYCLE))
        for name in LIFECYCLE:
            out[name] *= core
    return out


def score_breakdown(
    hits: Sequence[Hit],
    *,
    settings: Settings | None = None,
    ax: Any = None,
    label_width: int = 48,
    title: str | None = None,
) -> Any:
    """A horizontal stacked bar per hit: what each signal added to its score, best hit on top.

    Args:
        hits: Search hits (``rg.search(...)``).
        settings: Whose weights to use (default: the defaults; pass ``rg.settings`` for yours).
        ax: A matplotlib ``Axes`` to draw on (default: a new figure sized to the hits).
        label_width: Hit labels are cut at a word to this many characters (never mid-word).
        title: The plot's title.

    Returns:
        The ``Axes``. The legend sits outside the bars, right of the plot.
    """
    plt = _plt()
    if ax is None:
        _fig, ax = plt.subplots(figsize=(10, 0.45 * max(1, len(hits)) + 1.4))
    rows = [contributions(h, settings) for h in hits]
    labels = [
        f"{h.rank or i + 1}. {shorten(_hit_label(h), label_width)}" for i, h in enumerate(hits)
    ]
    ys = list(range(len(hits)))[::-1]  # the best hit on top
    left = [0.0] * len(hits)
    below = [0.0] * len(hits)
    for name in SIGNAL_WEIGHTS:
        values = [row[name] for row in rows]
        if not any(values):
            continue
        if name in LOWERS:  # the signals that lower a score: drawn left of zero
            ax.barh(ys, values, left=below, color=SIGNAL_COLOURS[name], label=f"{name} (lowers)")
            below = [x + v for x, v in zip(below, values, strict=True)]
            continue
        ax.barh(ys, values, left=left, color=SIGNAL_COLOURS[name], label=name)
        left = [x + v for x, v in zip(left, values, strict=True)]
    for y, h in zip(ys, hits, strict=True):
        ax.plot([h.score], [y], marker="|", color="black", markersize=14)
    ax.set_yticks(ys, labels, fontsize=8)
    ax.set_xlabel("contribution to the score (signal x weight); | = the final score")
    ax.set_title(title or "Why each hit ranks where it does")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    ax.figure.tight_layout()
    return ax


def _hit_label(hit: Hit) -> str:
    e = hit.entry
    return e.caption or e.title or (e.content.splitlines() or [""])[0]


def shorten(text: str, width: int) -> str:
    """``text`` cut at a word boundary to at most ``width`` characters, with an ellipsis."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    cut = text[: width - 1].rsplit(" ", 1)[0]
    return cut.rstrip(" ,.;:-") + "…"
