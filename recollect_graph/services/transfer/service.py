"""Export a scope to JSON Lines and import it back (into the same or another scope).

The format (``version`` 1) is one JSON object per line:

* a header: ``{"format": "recollect-graph-export", "version": 1, "scope_id", "embedding_model",
  "dimensions", "exported_at"}``;
* node lines: ``{"kind": "node", "labels": [...], "props": {...}}`` (embeddings included);
* relationship lines: ``{"kind": "rel", "type", "start", "end", "props"}`` where ``start`` and
  ``end`` are ``{"label", "id", "scope_id"}`` (the key label and id; a ``Session`` is keyed by
  scope and id).

Temporal values are written as ``{"$datetime": "<ISO 8601>"}`` (``$date``, ``$time``,
``$localdatetime``, ``$duration`` likewise) and read back to the same Neo4j type (a
``$datetime`` with the UTC offset written, so an export imported back changes nothing). Every
node lies in the exported scope, so relationships to other scopes are not exported.

Labels and relationship types are checked against fixed allow-lists (``NODE_LABELS`` and
``REL_TYPES`` in :mod:`recollect_graph.vocabulary`); they are the only names the statements put
into a dynamic label or relationship type. Node lookups seek the key label's index: on Neo4j 2026+
through a dynamic key label (the ``_c25`` statements), before 2026 through one branch per key
label (5.26 plans a dynamic label in a node pattern as a scan of every node).

Importing into another scope rewrites ``scope_id`` and, by default, remaps ids. An id the
services derive from the scope (entries from their content hash or source id, turns, entities,
identifiers, markers, claims, link suggestions, reflections) is derived again for the new scope,
so later writes there (``remember`` of the same text, ``add_turns`` of the same transcript) find
the imported nodes; any other id becomes ``uuid5(new scope, old id)``. A session keeps its id (its
key is ``(scope_id, id)``). Id references held in properties (a claim's ``entry_id``, a link
suggestion's ``a``/``b``/``from_id``/``to_id`` and so on) are remapped with them; ids inside
operation payloads (the undo log) are not. The import holds the map of re-derived ids (one pair
of strings per such node) in memory; lines are streamed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

from recollect_graph.db.client import Db
from recollect_graph.errors import InvalidInput, SchemaMismatch
from recollect_graph.results import ImportReport
from recollect_graph.services.knowledge.bulk import prefetched
from recollect_graph.services.transfer.format import (
    FORMAT,
    VERSION,
    encode,
    key_label,
    read_header,
)
from recollect_graph.services.transfer.job import ImportJob, batches
from recollect_graph.vocabulary import KEY_LABELS


class Transfer:
    """Export and import of scopes.

    Args:
        db: The database client.
        model: The configured embedding model id (used when the graph records none).
        dimensions: Its vector size.
    """

    def __init__(self, db: Db, *, model: str, dimensions: int) -> None:
        self.db = db
        self.model = model
        self.dimensions = dimensions

    def _embedding(self) -> tuple[str, int]:
        meta = self.db.read("admin/get_embedding_meta")
        if meta and meta[0]["model"]:
            return str(meta[0]["model"]), int(meta[0]["dimensions"])
        return self.model, self.dimensions

    def export(self, scope_id: str, *, page_size: int = 500) -> Iterator[dict[str, Any]]:
        """Every node of a scope, then every relationship between them, as format lines.

        Streams in pages of ``page_size`` nodes (id-ordered cursors); nothing is held whole.

        Raises:
            InvalidInput: The scope is empty, or holds a label the format does not know.
        """
        if not scope_id or not scope_id.strip():
            raise InvalidInput("a scope is required")
        combos = self.db.read("transfer/scope_labels", scope_id=scope_id)
        if not combos:
            raise InvalidInput(f"scope {scope_id!r} has no nodes to export")
        for c in combos:
            key_label(c["labels"])
        model, dims = self._embedding()
        yield {
            "format": FORMAT,
            "version": VERSION,
            "scope_id": scope_id,
            "embedding_model": model,
            "dimensions": dims,
            "exported_at": datetime.now(UTC).isoformat(),
            "nodes": sum(int(c["count"]) for c in combos),
        }
        for label in KEY_LABELS:
            after = ""
            while True:
                rows = self.db.read(
                    "transfer/nodes_page",
                    label=label,
                    scope_id=scope_id,
                    after=after,
                    limit=page_size,
                )
                for r in rows:
                    yield {
                        "kind": "node",
                        "labels": sorted(r["labels"]),
                        "props": encode(r["props"]),
                    }
                if len(rows) < page_size:
                    break
                after = str(rows[-1]["props"]["id"])
        for label in KEY_LABELS:
            after = ""
            while True:
                rows = self.db.read(
                    "transfer/rels_page",
                    label=label,
                    scope_id=scope_id,
                    after=after,
                    limit=page_size,
                )
                if not rows:
                    break
                for r in rows:
                    if r["type"] is None:
                        continue
                    yield {
                        "kind": "rel",
                        "type": r["type"],
                        "start": {"label": label, "id": r["cursor"], "scope_id": scope_id},
                        "end": {
                            "label": key_label(r["end_labels"]),
                            "id": r["end_id"],
                            "scope_id": r["end_scope"],
                        },
                        "props": encode(r["props"] or {}),
                    }
                starts = {r["cursor"] for r in rows}
                if len(starts) < page_size:
                    break
                after = str(max(starts))

    # -- import -----------------------------------------------------------------------------------
    def import_(
        self,
        lines: Iterable[str | dict[str, Any]],
        *,
        scope_id: str | None = None,
        keep_ids: bool | None = None,
        batch_size: int = 500,
        progress: Callable[[int], None] | None = None,
    ) -> ImportReport:
        """Import an export (lines of text or parsed dicts); idempotent, atomic per batch.

        Args:
            lines: The export's lines, header first.
            scope_id: The target scope (default: the exported scope).
            keep_ids: Keep the exported ids (default: only when importing into the exported
                scope); ``False`` remaps them into the target scope.
            batch_size: Lines per transaction.
            progress: Called with the number of lines written after each batch.

        Returns:
            The target and source scopes, whether ids were ``kept`` or ``remapped``, and the
            nodes and relationships written (and relationships skipped), each split into new,
            changed and already there as exported (a repeated import: all already there).

        Raises:
            InvalidInput: Not an export of this format/version, a malformed line, a label or
                type outside the allow-lists, a property over the limit a write enforces
                (``STORED_LIMITS``: an entry's content, title, tags, metadata...), or an id
                another scope already holds.
            SchemaMismatch: The export's embedding model or vector size differs from the
                database's (checked before anything is written).
        """
        it = iter(lines)
        header = read_header(it)
        model, dims = self._embedding()
        if header.get("embedding_model") != model or header.get("dimensions") != dims:
            raise SchemaMismatch(
                f"the export's vectors were made by {header.get('embedding_model')!r} "
                f"({header.get('dimensions')} dims) but this database uses {model!r} "
                f"({dims} dims); import it into a database built for that model",
                remedy="match_model",
            )
        source = header.get("scope_id")
        if not isinstance(source, str) or not source:
            raise InvalidInput("the export header has no scope_id")
        target = scope_id or source
        remap = (target != source) if keep_ids is None else not keep_ids
        job = ImportJob(self.db, source, target, remap, progress)
        # lines are parsed into batches on a worker thread while this one writes the batch
        # before: the order, and the batches committed before a bad line, stay as they were
        for kind, rows in prefetched(batches(it, job, batch_size)):
            if kind == "node":
                job.write_nodes(rows)
            else:
                job.write_rels(rows)
        return ImportReport(
            scope_id=target,
            source_scope_id=source,
            ids="remapped" if remap else "kept",
            nodes=job.nodes,
            rels=job.rels,
            skipped_rels=job.skipped,
            nodes_created=job.nodes_created,
            nodes_updated=job.nodes - job.nodes_created - job.nodes_unchanged,
            nodes_unchanged=job.nodes_unchanged,
            rels_created=job.rels_created,
            rels_updated=job.rels - job.rels_created - job.rels_unchanged,
            rels_unchanged=job.rels_unchanged,
            operation_id=job.operation_id,
        )
