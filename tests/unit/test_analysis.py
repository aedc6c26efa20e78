"""The notebooks' helpers: Browser's style read back, the graph view, the score plot, DataFrames."""

from __future__ import annotations

from datetime import UTC, datetime

import matplotlib
import pytest

from recollect_graph.analysis.graph import graph_from_rows, legend_label
from recollect_graph.analysis.plots import contributions, score_breakdown
from recollect_graph.analysis.style import BrowserStyle, browser_style
from recollect_graph.models import Entry, Hit, Signals
from recollect_graph.settings import Settings
from recollect_graph.tables import Records

matplotlib.use("Agg")


def _hit(rank: int, caption: str, **signals: float) -> Hit:
    entry = Entry(
        id=f"e{rank}",
        scope_id="s",
        owner_id="o",
        content="body",
        caption=caption,
        created_at=datetime(2026, 1, 1, tzinfo=UTC),
    )
    score = sum(signals.values())
    return Hit(entry=entry, score=score, signals=Signals(**signals), rank=rank)


def test_style_merges_rules_as_browser_does() -> None:
    style = BrowserStyle.parse(
        'node { color: #111111; caption: "{id}"; }\n'
        'node.Entry { color: #222222; caption: "{caption}"; }\n'
        "node.Decision { color: #333333; }\n"
    )
    assert style.node(["Decision", "Entry"])["color"] == "#333333"
    assert style.caption(["Entry", "Decision"], {"caption": "Use vite", "id": "x"}) == "Use vite"
    assert style.caption(["Other"], {"id": "x1"}) == "x1"
    assert legend_label(["Entry", "Decision"], style) == "Decision"


def test_the_shipped_style_colours_entry_types_apart() -> None:
    style = browser_style()
    colours = {t: style.node(["Entry", t])["color"] for t in ("Commit", "Decision", "Problem")}
    colours["Entry"] = style.node(["Entry"])["color"]
    assert len(set(colours.values())) == 4, colours


def test_graph_view_uses_browser_colours_captions_and_a_legend() -> None:
    style = browser_style()
    rows = [
        {
            "a": {"id": "d1", "labels": ["Entry", "Decision"], "props": {"caption": "Use vite"}},
            "b": {"id": "n1", "labels": ["Entity"], "props": {"name": "vite"}},
            "type": "MENTIONS",
            "out": True,
        },
        {
            "a": {"id": "d1", "labels": ["Entry", "Decision"], "props": {"caption": "Use vite"}},
            "b": {"id": "c1", "labels": ["Entry", "Commit"], "props": {"caption": "feat: vite"}},
            "type": "LEADS_TO",
            "out": False,
        },
    ]
    graph = graph_from_rows(rows)
    by_id = {str(n.id): n for n in graph.nodes}
    assert by_id["d1"].caption == "Use vite" and by_id["n1"].caption == "vite"
    assert str(by_id["d1"].color).upper() == style.node(["Entry", "Decision"])["color"].upper()
    assert str(by_id["c1"].color).upper() == style.node(["Entry", "Commit"])["color"].upper()
    leads = next(r for r in graph.relationships if r.caption == "LEADS_TO")
    assert (str(leads.source), str(leads.target)) == ("c1", "d1")
    html = graph.render().data
    for word in ("Decision", "Commit", "Entity", "LEADS_TO", "MENTIONS"):
        assert word in html


def test_score_breakdown_stacks_weighted_signals_with_whole_labels() -> None:
    long = "A caption that is far too long to fit beside the bars of the plot in one piece"
    hits = [_hit(1, long, semantic=0.9, keyword=0.5), _hit(2, "short", semantic=0.4, brevity=0.5)]
    s = Settings()
    assert contributions(hits[0], s)["semantic"] == pytest.approx(0.9 * s.w_semantic)
    assert contributions(hits[1], s)["brevity"] == pytest.approx(-0.5 * s.w_length)
    # lifecycle signals multiply the core: the parts add up to the fused score
    strong = _hit(3, "strong", semantic=0.8, keyword=0.4, strength=1.0, quality=0.5)
    parts = contributions(strong, s)
    core = 0.8 * s.w_semantic + 0.4 * s.w_keyword
    assert sum(parts.values()) == pytest.approx(core * (1 + s.w_strength + 0.5 * s.w_quality))
    added = contributions(strong, s.model_copy(update={"search_lifecycle": "add"}))
    assert added["strength"] == pytest.approx(s.w_strength)
    # a turn that reports an event adds w_event of its relevance
    event = contributions(_hit(4, "I just moved", semantic=0.8, keyword=0.4, event=1.0), s)
    assert event["event"] == pytest.approx(s.w_event * core)
    assert sum(event.values()) == pytest.approx(core * (1 + s.w_event))
    # so does a turn naming someone, for a question asking who or where (w_name)
    both = _hit(5, "I went with Rob", semantic=0.8, keyword=0.4, event=1.0, named=1.0)
    parts = contributions(both, s)
    assert parts["named"] == pytest.approx(s.w_name * core)
    assert sum(parts.values()) == pytest.approx(core * (1 + s.w_event + s.w_name))
    ax = score_breakdown(hits)
    labels = {t.get_position()[1]: t.get_text() for t in ax.get_yticklabels()}
    top, below = labels[max(labels)], labels[min(labels)]  # the best hit on top
    assert below == "2. short" and top.startswith("1. A caption") and top.endswith("…")
    assert top[3:-1].split() == long.split()[: len(top[3:-1].split())]  # cut between words
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["semantic", "keyword", "brevity (lowers)"]
    # the legend sits right of the axes, clear of the bars
    ax.figure.canvas.draw()
    box = ax.get_legend().get_window_extent()
    assert box.x0 >= ax.get_window_extent().x1


def test_records_make_flat_dataframes() -> None:
    hits = Records([_hit(1, "one", semantic=0.5), _hit(2, "two", keyword=0.2)])
    df = hits.df
    assert list(df["entry.caption"]) == ["one", "two"]
    assert list(df["signals.semantic"]) == [0.5, 0.0]
    assert hits.to_pandas(["rank", "score"]).shape == (2, 2)
    assert "entry" in hits.to_pandas(flatten=False).columns
    assert hits == list(hits)
