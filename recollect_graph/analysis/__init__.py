"""Helpers for analysts in notebooks: DataFrames, plots and graph views of a store.

* :mod:`.style`: the Neo4j Browser style (``style.grass``) read into colours, sizes and captions
  per label, so every view colours a node as Browser does.
* :mod:`.graph`: a scope's subgraph as an interactive ``neo4j-viz`` view with those colours and
  captions and a legend (the ``notebooks`` extra).
* :mod:`.plots`: matplotlib plots: the per-signal score breakdown of search hits as stacked bars.

DataFrames come from the result lists themselves: ``rg.search(...).df`` (see
:class:`recollect_graph.tables.Records`). Every optional package is imported when it is first
needed, with an error naming the extra to install when it is missing.
"""

from __future__ import annotations

from recollect_graph.analysis.style import BrowserStyle, browser_style

__all__ = ["BrowserStyle", "browser_style"]
