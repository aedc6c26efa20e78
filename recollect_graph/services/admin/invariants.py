"""``check_invariants``: every orphan and violation of the graph's invariants, with the ids.

Each check is one read-only statement in ``cypher/invariants/`` and returns the offending nodes
or edges (empty when the graph is clean). All checks run in one read transaction, so they see one
consistent snapshot even while other clients write. The checks:

- ``entry_fields``: entries without a scope, owner, content or embedding;
- ``vectors``: stored vectors without the configured model's id or dimension (any label);
- ``claims``: claims whose entry is gone (or is not the one that asserts them), or about nothing;
- ``entities``: entities nothing refers to;
- ``turns``: turns not held (``HAS_TURN``) by exactly one session of their scope and id;
- ``sessions``: a session's ``turn_count`` differs from its turns, or two turns share a ``seq``;
- ``next_links``: ``NEXT`` edges across sessions or scopes, out of order, branching or merging;
- ``cross_scope_edges``: any relationship between nodes of two scopes (``CONTRADICTS``,
  ``SUPERSEDES``, ``FORKED_FROM``, knowledge edges, ``MENTIONS``...);
- ``duplicate_edges``: the same (start, end, type) stored twice;
- ``duplicate_source_ids``: two entries of a scope (turns: of a session) with one ``source_id``;
- ``link_suggestions``: suggestions pointing into another scope, or pending ones whose entry is
  gone;
- ``superseded``: retired entries whose ``retired_by`` entry is gone, in another scope, or does
  not ``SUPERSEDE`` them;
- ``chunks`` and ``relations``: chunks without a document, relations without evidence;
- ``documents``: a ready document whose chunk count disagrees with its chunks, chunks claiming
  another document, a chunk ``NEXT`` chain that is not one path in order, runs held by no
  document, relations without exactly one subject and object, mentions from anything but a
  chunk or an entry;
- ``access_events``: access history that breaks its rules (items referenced other than by an
  ``ACCESSED`` edge, edges across scopes or to unknown labels);
- ``unscoped_nodes``: nodes of the library's labels without ``scope_id`` (whole graph only).

``Operation.entry_ids`` are deliberately not checked: a ``forget`` operation names the entry it
deleted so that ``undo`` can bring it back.

Example:
    >>> found = rg.check_invariants("app")  # doctest: +SKIP
    >>> {name: rows for name, rows in found.items() if rows}  # doctest: +SKIP
    {}
"""

from __future__ import annotations

from typing import Any

from recollect_graph.db.client import Db, Tx
from recollect_graph.db.queries import cypher
from recollect_graph.services.kernel.times import native
from recollect_graph.services.kernel.validation import in_range, require_text
from recollect_graph.vocabulary import SCOPED_LABELS

#: The checks, in the order they are reported (each is ``cypher/invariants/<name>.cypher``).
CHECKS = (
    "entry_fields",
    "vectors",
    "claims",
    "entities",
    "turns",
    "sessions",
    "next_links",
    "cross_scope_edges",
    "duplicate_edges",
    "duplicate_source_ids",
    "link_suggestions",
    "superseded",
    "chunks",
    "relations",
    "documents",
    "access_events",
    "unscoped_nodes",
)


class Invariants:
    """Runs the invariant checks over one database.

    Args:
        db: The database client.
        model: The configured embedding model id (every stored vector must carry it).
        dimensions: The configured model's vector size.
    """

    def __init__(self, db: Db, *, model: str, dimensions: int) -> None:
        self.db = db
        self.model = model
        self.dimensions = dimensions

    def check(
        self, scope_id: str | None = None, *, limit: int = 1000
    ) -> dict[str, list[dict[str, Any]]]:
        """Run every check; returns ``{check: [violation, ...]}``, all lists empty when clean.

        Args:
            scope_id: Only this scope (default: the whole graph). An edge counts for a scope when
                either end is in it.
            limit: Most violations reported per check.

        Raises:
            InvalidInput: An empty scope id or a limit outside 1-100000.
        """
        scope = None if scope_id is None else require_text(scope_id, "scope_id")
        values: dict[str, Any] = {
            "scope_id": scope,
            "limit": int(in_range(limit, "limit", 1, 100_000)),
            "model": self.model,
            "dimensions": self.dimensions,
            "labels": list(SCOPED_LABELS),
        }

        def run_all(tx: Tx) -> dict[str, list[dict[str, Any]]]:
            out: dict[str, list[dict[str, Any]]] = {}
            for name in CHECKS:
                q = f"invariants/{name}"
                params = {k: values[k] for k in cypher(q).params}
                out[name] = [_plain(r) for r in tx.run(q, **params)]
            return out

        return self.db.read_tx(run_all)


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    return {k: native(v) for k, v in row.items()}
