"""A scope's subgraph as an interactive ``neo4j-viz`` view, coloured and captioned as in Browser.

Example:
    >>> from recollect_graph.analysis.graph import graph_view
    >>> view = graph_view(rg, "demo", limit=300)  # doctest: +SKIP
    >>> view.render(height="500px")  # doctest: +SKIP
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from recollect_graph.analysis.style import BrowserStyle, browser_style
from recollect_graph.db.queries import cypher


class Queryable(Protocol):
    """Anything with :meth:`recollect_graph.Recollect.query`."""

    def query(
        self, cypher: str, params: Mapping[str, Any] | None = None, *, write: bool = False
    ) -> Sequence[Mapping[str, Any]]:
        """Run a read-only statement."""
        ...


def _viz() -> Any:
    try:
        return importlib.import_module("neo4j_viz")
    except ImportError as e:
        raise ImportError(
            "the graph view needs neo4j-viz: pip install 'recollect-graph[notebooks]' "
            "(or neo4j-viz)"
        ) from e


def subgraph(rg: Queryable, scope_id: str, *, limit: int = 300) -> list[Mapping[str, Any]]:
    """The rows of a scope's subgraph (``cypher/analysis/subgraph.cypher``)."""
    if not isinstance(limit, int) or not 1 <= limit <= 10_000:
        raise ValueError(f"limit must be an int from 1 to 10000, not {limit!r}")
    rows = rg.query(cypher("analysis/subgraph").text, {"scope": scope_id, "limit": limit})
    return list(rows)


def legend_label(labels: Iterable[str], style: BrowserStyle) -> str:
    """The label a node's colour comes from: the last of its labels the style sheet styles."""
    have = set(labels)
    styled = [name for name in style.labels() if name in have]
    return styled[-1] if styled else "(other)"


def graph_from_rows(rows: Iterable[Mapping[str, Any]], *, style: BrowserStyle | None = None) -> Any:
    """A ``neo4j_viz.VisualizationGraph`` of subgraph rows, with a legend of what it shows.

    Each row has ``a`` and ``b`` (maps of ``id``, ``labels``, ``props``), ``type`` and ``out``
    (whether the relationship goes from ``a`` to ``b``), as :func:`subgraph` returns them.
    Nodes get Browser's colour, size and caption; relationships its colour and their type.
    """
    viz = _viz()
    style = style or browser_style()
    nodes: dict[str, Any] = {}
    legend_nodes: dict[str, str] = {}
    legend_rels: dict[str, str] = {}
    rels = []
    for r in rows:
        for end in (r["a"], r["b"]):
            if end["id"] in nodes:
                continue
            labels = list(end["labels"])
            look = style.node(labels)
            colour = look.get("color", "#A5ABB6")
            key = legend_label(labels, style)
            legend_nodes.setdefault(key, colour)
            nodes[end["id"]] = viz.Node(
                id=end["id"],
                caption=style.caption(labels, end["props"]) or key,
                color=colour,
                size=style.diameter(labels) / 4,
                properties={"labels": ":".join(labels), "id": end["id"]},
            )
        src, dst = (r["a"]["id"], r["b"]["id"]) if r["out"] else (r["b"]["id"], r["a"]["id"])
        colour = style.relationship(r["type"]).get("color", "#A5ABB6")
        legend_rels.setdefault(r["type"], colour)
        rels.append(viz.Relationship(source=src, target=dst, caption=r["type"], color=colour))
    graph = viz.VisualizationGraph(nodes=list(nodes.values()), relationships=rels)
    graph.set_legend(
        nodes=dict(sorted(legend_nodes.items())), relationships=dict(sorted(legend_rels.items()))
    )
    return graph


def graph_view(rg: Queryable, scope_id: str, *, limit: int = 300) -> Any:
    """A scope's subgraph as a ``neo4j_viz.VisualizationGraph`` (``.render()`` draws it)."""
    return graph_from_rows(subgraph(rg, scope_id, limit=limit))
