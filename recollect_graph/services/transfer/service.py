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
into a dynamic label or relationship type (node lookups seek per key label: no dynamic node
label).

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

import json
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

from recollect_graph.db.client import Db, Tx
from recollect_graph.errors import InvalidInput, SchemaMismatch
from recollect_graph.ids import imported_id
from recollect_graph.results import ImportReport
from recollect_graph.services.kernel.times import now_utc
from recollect_graph.services.kernel.validation import stored_limits
from recollect_graph.services.knowledge import footprint
from recollect_graph.services.knowledge.bulk import prefetched
from recollect_graph.services.transfer.format import (
    FORMAT,
    LABEL_REF_KEYS,
    REF_KEYS,
    VERSION,
    decode,
    derivation,
    encode,
    key_label,
    parse_line,
    read_header,
)
from recollect_graph.vocabulary import KEY_LABELS, REL_TYPES


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
        job = _Import(self.db, source, target, remap, progress)
        # lines are parsed into batches on a worker thread while this one writes the batch
        # before: the order, and the batches committed before a bad line, stay as they were
        for kind, rows in prefetched(_batches(it, job, batch_size)):
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


def _batches(
    it: Iterator[str | dict[str, Any]], job: _Import, batch_size: int
) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """The import's write batches, in line order: ``("node" | "rel", rows)``.

    A batch holds lines of one kind, at most ``batch_size``; a line of the other kind ends it.

    Raises:
        InvalidInput: A malformed line (after the batches before it).
    """
    nodes: list[dict[str, Any]] = []
    rels: list[dict[str, Any]] = []
    for n, raw in enumerate(it, start=2):
        line = parse_line(raw, n)
        if line is None:
            continue
        kind = line.get("kind")
        if kind == "node":
            if rels:
                yield "rel", rels
                rels = []
            nodes.append(job.node_row(line, n))
            if len(nodes) >= batch_size:
                yield "node", nodes
                nodes = []
        elif kind == "rel":
            if nodes:
                yield "node", nodes
                nodes = []
            rels.append(job.rel_row(line, n))
            if len(rels) >= batch_size:
                yield "rel", rels
                rels = []
        else:
            raise InvalidInput(f"line {n}: unknown kind {kind!r} (expected node or rel)")
    if nodes:
        yield "node", nodes
    if rels:
        yield "rel", rels


def _counts(rows: list[dict[str, Any]]) -> tuple[int, int, int]:
    """``(written, created, unchanged)`` of an import statement's one row."""
    r = rows[0]
    return int(r["written"]), int(r["created"]), int(r["unchanged"])


class _Import:
    """State of one import: id remapping and counts."""

    def __init__(
        self,
        db: Db,
        source: str,
        target: str,
        remap: bool,
        progress: Callable[[int], None] | None,
    ) -> None:
        self.db = db
        self.source = source
        self.target = target
        self.remap = remap
        self.progress = progress
        self.derived: dict[str, str] = {}
        self.nodes = 0
        self.nodes_created = 0
        self.nodes_unchanged = 0
        self.rels = 0
        self.rels_created = 0
        self.rels_unchanged = 0
        self.skipped = 0
        self.done = 0
        #: the one operation that undoes the import, and the difference of each batch so far
        self.operation_id: str | None = None
        #: parts (batch differences) of the operation committed so far, and in the open batch
        self.parts = 0
        self.pending: str | None = None
        self.pending_parts: int | None = None

    def new_id(self, key: str, old: str) -> str:
        """The id of a node in the target scope (a session keeps its id: its key is scoped)."""
        if not self.remap or key == "Session":
            return old
        return self._ref(old)

    def _ref(self, old: str) -> str:
        if old in self.derived:
            return self.derived[old]
        return imported_id(self.target, old)

    def _refs(self, value: Any) -> Any:
        if isinstance(value, str):
            return self._ref(value)
        if isinstance(value, list):
            return [self._ref(v) if isinstance(v, str) else v for v in value]
        return value

    def node_row(self, line: dict[str, Any], n: int) -> dict[str, Any]:
        labels = line.get("labels")
        props = line.get("props")
        if not isinstance(labels, list) or not isinstance(props, dict):
            raise InvalidInput(f"line {n}: a node needs a labels list and a props map")
        try:
            key = key_label(labels)
        except InvalidInput as e:
            raise InvalidInput(f"line {n}: {e}") from e
        old = props.get("id")
        if not isinstance(old, str) or not old:
            raise InvalidInput(f"line {n}: the node has no id")
        if props.get("scope_id") != self.source:
            raise InvalidInput(
                f"line {n}: node {old} is in scope {props.get('scope_id')!r}, "
                f"not the exported scope {self.source!r}"
            )
        stored_limits(key, props, f"line {n}")
        props = decode(props)
        props["scope_id"] = self.target
        if self.remap:
            derive = derivation(key, labels, props)
            if derive is not None and derive(self.source, lambda x: x) == old:
                self.derived[old] = derive(self.target, self._ref)
            refs = REF_KEYS | LABEL_REF_KEYS.get(key, frozenset())
            for k in refs & props.keys():
                props[k] = self._refs(props[k])
            if key == "LinkSuggestion" and isinstance(props.get("a"), str):
                props["a"], props["b"] = sorted((str(props["a"]), str(props["b"])))
            props["id"] = self.new_id(key, old)
        return {"key": key, "labels": labels, "props": props}

    def rel_row(self, line: dict[str, Any], n: int) -> dict[str, Any]:
        rtype = line.get("type")
        if rtype not in REL_TYPES:
            raise InvalidInput(f"line {n}: relationship type {rtype!r} is not part of the format")
        ends: list[dict[str, str]] = []
        for side in ("start", "end"):
            ref = line.get(side)
            if not isinstance(ref, dict) or ref.get("label") not in KEY_LABELS:
                raise InvalidInput(f"line {n}: {side} needs a key label ({', '.join(KEY_LABELS)})")
            if not isinstance(ref.get("id"), str):
                raise InvalidInput(f"line {n}: {side} has no id")
            ends.append({"label": ref["label"], "id": self.new_id(ref["label"], ref["id"])})
        props = line.get("props") or {}
        if not isinstance(props, dict):
            raise InvalidInput(f"line {n}: props must be a map")
        return {"type": rtype, "start": ends[0], "end": ends[1], "props": decode(props)}

    def write_nodes(self, rows: list[dict[str, Any]]) -> None:
        target = self.target

        def work(tx: Tx) -> tuple[int, int, int]:
            # one read finds the batch's nodes wherever they are: another scope's refuse the
            # batch, the target scope's are its before-state; the write says which it created
            found = tx.run(
                "transfer/lookup",
                rows=[{"key": r["key"], "id": r["props"]["id"]} for r in rows],
                scope_id=target,
            )
            taken = [f for f in found if f["scope_id"] != target]
            if taken:
                t = taken[0]
                raise InvalidInput(
                    f"{len(taken)} id(s) of the import are held by another scope "
                    f"(e.g. {t['label']} {t['id']} in {t['scope_id']!r}); import into a new "
                    "scope with remapped ids (the default for --scope NEW)"
                )
            capture = footprint.Capture(tx.run, target, walk=False)
            capture.add_eids(f["eid"] for f in found)
            # nodes found nowhere (each id once in the batch) are created outright; the rest
            # (already there, or repeated in the batch) are merged in line order
            there = {(f["label"], f["id"]) for f in found}
            seen = Counter((r["key"], r["props"]["id"]) for r in rows)
            fresh: list[dict[str, Any]] = []
            merged: list[dict[str, Any]] = []
            for r in rows:
                key = (r["key"], r["props"]["id"])
                (fresh if key not in there and seen[key] == 1 else merged).append(r)
            made: dict[str, tuple[str, str]] = {}
            written = created = unchanged = 0
            for name, part in (("transfer/create_nodes", fresh), ("transfer/import_nodes", merged)):
                if part:
                    result = tx.run(name, rows=part)
                    made.update({str(e): (str(k), str(i)) for e, k, i in result[0]["made"]})
                    w, c, u = _counts(result)
                    written, created, unchanged = written + w, created + c, unchanged + u
            self._log(tx, capture.finish(made=made))
            return written, created, unchanged

        written, created, unchanged = self.db.write_tx(work)
        self.nodes += written
        self.nodes_created += created
        self.nodes_unchanged += unchanged
        self._tick(len(rows))

    def write_rels(self, rows: list[dict[str, Any]]) -> None:
        target = self.target

        def work(tx: Tx) -> tuple[int, int, int]:
            # import_rels writes relationships only and reports each one it created or altered
            # (properties before and after): that is the batch's undo record, with no capture
            # of the ends' other relationships (a hub node's thousands, every batch).
            result = tx.run("transfer/import_rels", scope_id=target, rows=rows)
            self._log(tx, footprint.rel_changes(result[0]["changed"]))
            return _counts(result)

        written, created, unchanged = self.db.write_tx(work)
        self.rels += written
        self.rels_created += created
        self.rels_unchanged += unchanged
        self.skipped += len(rows) - written
        self._tick(len(rows))

    def _log(self, tx: Tx, change: dict[str, Any] | None) -> None:
        """Record a batch's difference in the import's one operation, in the batch's transaction.

        The first batch that changes anything writes the operation; each batch adds its own
        difference as one more part of it (:data:`footprint.PART_PREFIX`), so the operation
        always undoes exactly what has been committed (a crashed import is undone as far as it
        got), and each batch writes only what it changed.
        """
        if change is None:
            return
        if self.operation_id is None:
            op = str(uuid.uuid4())
            tx.run(
                "operations/record",
                id=op,
                kind="import",
                scope_id=self.target,
                actor=None,
                now=now_utc(),
                entry_ids=[],
                reason=f"import of scope {self.source} into {self.target}",
                before=json.dumps({"v": footprint.VERSION, "parts": footprint.PART_PREFIX}),
            )
            self.pending = op
        else:
            self.pending = self.operation_id
        number = self.parts + 1
        tx.run(
            "operations/add_part",
            id=self.pending,
            part={footprint.part_key(number): json.dumps(change)},
        )
        self.pending_parts = number

    def _committed(self) -> None:
        if self.pending_parts is not None:
            self.operation_id = self.pending
            self.parts = self.pending_parts
            self.pending_parts = None

    def _tick(self, n: int) -> None:
        self._committed()
        self.done += n
        if self.progress:
            self.progress(self.done)
