"""Claims in the graph, contradiction checks, conflicts, supersession and invalidation."""
