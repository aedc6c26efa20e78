"""Context packs: gathering candidates for a query and fitting them into a token budget."""
