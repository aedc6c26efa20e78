"""One import's batches: id remapping, the node and relationship writes, the undo record.

:class:`ImportJob` holds the state of one run of :meth:`Transfer.import_
<recollect_graph.services.transfer.service.Transfer.import_>`; :func:`batches` cuts the export's
lines into its write batches.
"""

from __future__ import annotations

import json
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from recollect_graph.db.client import Db, Tx
from recollect_graph.errors import ConstraintViolation, InvalidInput
from recollect_graph.ids import imported_id
from recollect_graph.services.kernel.times import now_utc
from recollect_graph.services.kernel.validation import stored_limits
from recollect_graph.services.knowledge import footprint
from recollect_graph.services.transfer.format import (
    LABEL_REF_KEYS,
    REF_KEYS,
    decode,
    derivation,
    key_label,
    parse_line,
)
from recollect_graph.vocabulary import KEY_LABELS, REL_TYPES


def batches(
    it: Iterator[str | dict[str, Any]], job: ImportJob, batch_size: int
) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """The import's write batches, in line order: ``("node" | "rel", rows)``.

    A batch holds lines of one kind, at most ``batch_size``; a line of the other kind ends it.

    Raises:
        InvalidInput: A malformed line (after the batches before it).
    """
    open_kind = ""
    rows: list[dict[str, Any]] = []
    for n, raw in enumerate(it, start=2):
        line = parse_line(raw, n)
        if line is None:
            continue
        kind = line.get("kind")
        if kind not in ("node", "rel"):
            raise InvalidInput(f"line {n}: unknown kind {kind!r} (expected node or rel)")
        if rows and kind != open_kind:
            yield open_kind, rows
            rows = []
        open_kind = kind
        rows.append(job.node_row(line, n) if kind == "node" else job.rel_row(line, n))
        if len(rows) >= batch_size:
            yield kind, rows
            rows = []
    if rows:
        yield open_kind, rows


def _counts(rows: list[dict[str, Any]]) -> tuple[int, int, int]:
    """``(written, created, unchanged)`` of an import statement's one row."""
    r = rows[0]
    return int(r["written"]), int(r["created"]), int(r["unchanged"])


class ImportJob:
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
        #: whether the last lookup found none of its batch's ids (the next batch skips it)
        self.fresh = False

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
        """The write row of node line ``n``: checked, decoded, moved into the target scope.

        Raises:
            InvalidInput: No labels or props, no key label, no id, another scope's node, or a
                property over the stored limits.
        """
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
        """The write row of relationship line ``n``: its type and ends checked, ids mapped.

        Raises:
            InvalidInput: A type outside the allow-list, an end without a key label or id.
        """
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
        """Write one node batch in one transaction, with its part of the undo record.

        Once a batch's lookup has found none of its ids anywhere (an import into a new scope),
        the next batches are created outright without the lookup; the key constraints refuse
        any id that is there after all, and that batch runs again with the lookup (which says
        which scope holds it), as does every batch after it.
        """
        seen = Counter((r["key"], r["props"]["id"]) for r in rows)
        counts: tuple[int, int, int] | None = None
        if self.fresh and max(seen.values()) == 1:
            try:
                counts = self.db.write_tx(lambda tx: self._write_nodes(tx, rows, [], seen))
            except ConstraintViolation:
                self.fresh = False  # an id is there after all: look every batch up from now on
        if counts is None:
            counts = self.db.write_tx(lambda tx: self._look_up_and_write(tx, rows, seen))
        written, created, unchanged = counts
        self.nodes += written
        self.nodes_created += created
        self.nodes_unchanged += unchanged
        self._tick(len(rows))

    def _look_up_and_write(
        self, tx: Tx, rows: list[dict[str, Any]], seen: Counter[tuple[str, str]]
    ) -> tuple[int, int, int]:
        # one read finds the batch's nodes wherever they are: another scope's refuse the batch,
        # the target scope's are its before-state
        found = tx.run(
            "transfer/lookup",
            rows=[{"key": r["key"], "id": r["props"]["id"]} for r in rows],
            scope_id=self.target,
        )
        taken = [f for f in found if f["scope_id"] != self.target]
        if taken:
            t = taken[0]
            raise InvalidInput(
                f"{len(taken)} id(s) of the import are held by another scope "
                f"(e.g. {t['label']} {t['id']} in {t['scope_id']!r}); import into a new "
                "scope with remapped ids (the default for --scope NEW)"
            )
        counts = self._write_nodes(tx, rows, found, seen)
        self.fresh = not found
        return counts

    def _write_nodes(
        self,
        tx: Tx,
        rows: list[dict[str, Any]],
        found: list[dict[str, Any]],
        seen: Counter[tuple[str, str]],
    ) -> tuple[int, int, int]:
        """Write the batch, given the nodes already there (``found``), with its undo record.

        The statements say which nodes they created, so the record needs no second read.
        """
        capture = footprint.Capture(tx.run, self.target, walk=False)
        capture.add_eids(f["eid"] for f in found)
        # nodes found nowhere (each id once in the batch) are created outright; the rest
        # (already there, or repeated in the batch) are merged in line order
        there = {(f["label"], f["id"]) for f in found}
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

    def write_rels(self, rows: list[dict[str, Any]]) -> None:
        """Write one relationship batch in one transaction, with its part of the undo record."""
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
