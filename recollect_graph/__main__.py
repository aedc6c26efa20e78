"""``python -m recollect_graph``: the same as the ``recollect-graph`` command."""

from recollect_graph.cli.main import main

main()
