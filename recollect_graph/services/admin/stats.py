"""Statistics and inspection: what the graph (or one scope) holds, and any node by id.

``stats`` counts nodes per label and relationships per type, the work waiting (pending link
suggestions, open contradictions, stale topics and session indexes), the state of every index and,
for the embedded server, the size of its store on disk (``None`` for a server elsewhere: Neo4j
Community has no cheap way to ask). ``show`` finds a node by id under any key label and lists its
neighbourhood, bounded.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from recollect_graph.db.client import Db
from recollect_graph.db.schema import list_indexes
from recollect_graph.errors import InvalidInput, NodeNotFound
from recollect_graph.services.kernel.times import native
from recollect_graph.services.kernel.validation import require_scope
from recollect_graph.vocabulary import KEY_LABELS

#: Vector properties a node view leaves out (the Cypher projection nulls them).
_VECTORS = frozenset({"embedding", "context_embedding"})


def dir_size(path: Path) -> int | None:
    """Total size in bytes of the files under ``path`` (``None`` when it does not exist)."""
    if not path.is_dir():
        return None
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            try:
                total += (Path(root) / name).lstat().st_size
            except OSError:
                continue
    return total


class Stats:
    """Counts and inspection over one database.

    Args:
        db: The database client.
        store_dir: The embedded server's store folder (``None`` for a server elsewhere).
    """

    def __init__(self, db: Db, *, store_dir: Path | None = None) -> None:
        self.db = db
        self.store_dir = store_dir

    def stats(self, scope_id: str | None = None) -> dict[str, Any]:
        """Counts per label and type, waiting work, index states and store size.

        Returns:
            ``{"scope_id", "labels": {label: n}, "relationships": {type: n},
            "pending_suggestions", "open_conflicts", "stale_topics", "stale_sessions",
            "indexes": [{name, type, labels, properties, state}], "store_bytes"}``.
        """
        scope = scope_id or None
        if scope is None:
            rows = self.db.read("admin/counts")
        else:
            rows = self.db.read("stats/labels", scope_id=scope)
        labels = {str(r["label"]): int(r["count"]) for r in rows if r["count"]}
        rels = {
            str(r["type"]): int(r["count"]) for r in self.db.read("stats/rel_types", scope_id=scope)
        }
        summary = self.db.read("stats/summary", scope_id=scope)[0]
        indexes = [
            {
                "name": i.name,
                "type": i.type,
                "labels": i.labels,
                "properties": i.properties,
                "state": i.state,
            }
            for i in list_indexes(self.db)
        ]
        return {
            "scope_id": scope,
            "labels": labels,
            "relationships": rels,
            **{k: int(v) for k, v in summary.items()},
            "indexes": indexes,
            "store_bytes": dir_size(self.store_dir) if self.store_dir else None,
        }

    def show(self, node_id: str, *, scope_id: str | None = None, limit: int = 50) -> dict[str, Any]:
        """A node (or the nodes, when a session id is used in several scopes) by id.

        Returns:
            ``{"id", "nodes": [{labels, id, scope_id, props (no embedding), neighbours:
            [{type, outgoing, label, id, scope_id, caption}], total, more}]}``.

        Raises:
            InvalidInput: ``limit`` is out of range, or no ``scope_id`` (required: an id is
                resolved within one scope).
            NodeNotFound: No node has that id in that scope.
        """
        scope_id = require_scope(scope_id)
        if not node_id or not node_id.strip():
            raise InvalidInput("a node id is required")
        if not 1 <= limit <= 1000:
            raise InvalidInput("limit must be between 1 and 1000")
        found = self.db.read(
            "stats/node", labels=list(KEY_LABELS), id=node_id, scope_id=scope_id or None
        )
        if not found:
            raise NodeNotFound(node_id, scope_id=scope_id)
        nodes = []
        for row in found:
            hood = self.db.read("stats/neighbours", element_id=row["element_id"], limit=limit)[0]
            props = {k: native(v) for k, v in row["props"].items() if k not in _VECTORS}
            neighbours = [
                {
                    "type": n["type"],
                    "outgoing": n["outgoing"],
                    "label": _main_label(n["labels"]),
                    "id": n["id"],
                    "scope_id": n["scope_id"],
                    "caption": str(n["caption"] or ""),
                }
                for n in hood["neighbours"]
            ]
            nodes.append(
                {
                    "labels": sorted(row["labels"]),
                    "id": props.get("id"),
                    "scope_id": props.get("scope_id"),
                    "props": props,
                    "neighbours": neighbours,
                    "total": int(hood["total"]),
                    "more": max(0, int(hood["total"]) - len(neighbours)),
                }
            )
        return {"id": node_id, "nodes": nodes}


def _main_label(labels: list[str]) -> str:
    for k in ("Turn", *KEY_LABELS):
        if k in labels:
            return k
    return labels[0] if labels else ""
