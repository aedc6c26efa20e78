"""Entities and their relations as a graph: show, neighbourhood, path, review and merge.

Entities are per scope and identified by their normalised name; the documents pipeline (and
claims) create them. Relations are ``Relation`` nodes with ``SUBJECT`` and ``OBJECT`` edges to
their two entities and ``EVIDENCED_BY`` edges to the chunks and entries that state them; a
relation's ``weight`` is its evidence count. Walks are undirected, like upstream's, but each step
reports the predicate and its direction.

Merging two entities is recorded as an :class:`~recollect_graph.models.Operation` (kind
``entity_merge``) holding the absorbed entity; :meth:`Entities.unmerge` undoes it.

Example:
    >>> rg.entities.neighbours("postgresql", scope_id="ops", hops=2)  # doctest: +SKIP
    [{'id': ..., 'name': 'billing service', 'hops': 1, 'via': 'alice --depend on--> ...'}]
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import Any

from recollect_graph.db.client import Db, Tx
from recollect_graph.errors import EntityMergeNotFound, EntityNotFound, InvalidInput
from recollect_graph.nlp.entities import normalize
from recollect_graph.services.documents.pipeline import CandidateReader, Pipeline, Plan, write_links
from recollect_graph.services.kernel.times import native_row, now_utc
from recollect_graph.services.kernel.validation import MAX_OFFSET, in_range, require_text
from recollect_graph.services.knowledge import footprint

MAX_HOPS = 4


class Entities:
    """Entity queries over one database.

    Args:
        db: The database client.
    """

    def __init__(self, db: Db) -> None:
        self.db = db

    def resolve(self, ref: str, *, scope_id: str) -> str:
        """An entity's id from its id, name (normalised) or an alias."""
        ref = require_text(ref, "entity", max_len=500)
        rows = self.db.read("entities/find", scope_id=scope_id, ref=ref, key=normalize(ref))
        if not rows:
            raise EntityNotFound(ref, scope_id=scope_id)
        return str(rows[0]["id"])

    def show(self, ref: str, *, scope_id: str, limit: int = 20) -> dict[str, Any]:
        """The entity, its top mentions (with snippets) and its relations."""
        eid = self.resolve(ref, scope_id=scope_id)
        row = self.db.read("entities/show", scope_id=scope_id, id=eid, limit=limit)[0]
        ent = native_row(row["entity"])
        return {**ent, "mentions": row["mentions"], "relations": row["relations"]}

    def relations(self, ref: str, *, scope_id: str, limit: int = 100) -> list[dict[str, Any]]:
        """Every relation touching the entity: predicate, direction, the other entity, weight."""
        return list(self.show(ref, scope_id=scope_id, limit=limit)["relations"])

    def neighbours(
        self, ref: str, *, scope_id: str, hops: int = 2, limit: int = 50
    ) -> list[dict[str, Any]]:
        """Entities within ``hops`` relations (either direction), nearest first.

        Each item: ``id, name, entity_type, mention_count, hops`` and ``via`` (the relation that
        reached it: ``subject --predicate--> object`` as stored).
        """
        if not 1 <= int(hops) <= MAX_HOPS:
            raise InvalidInput(f"hops must be between 1 and {MAX_HOPS} (got {hops})")
        limit = max(1, min(int(limit), 500))
        start = self.resolve(ref, scope_id=scope_id)
        names = {start: self._name(start, scope_id)}
        seen = {start}
        frontier = [start]
        out: list[dict[str, Any]] = []
        for depth in range(1, int(hops) + 1):
            if not frontier or len(out) >= limit:
                break
            rows = self.db.read("entities/step", scope_id=scope_id, ids=frontier, limit=limit * 4)
            nxt: list[str] = []
            for r in rows:
                if r["id"] in seen:
                    continue
                seen.add(r["id"])
                names[r["id"]] = r["name"]
                a, b = (names[r["from_id"]], r["name"])
                via = (
                    f"{a} --{r['predicate']}--> {b}"
                    if r["direction"] == "out"
                    else (f"{b} --{r['predicate']}--> {a}")
                )
                out.append(
                    {
                        "id": r["id"],
                        "name": r["name"],
                        "entity_type": r["entity_type"],
                        "mention_count": r["mention_count"],
                        "hops": depth,
                        "via": via,
                        "weight": r["weight"],
                    }
                )
                nxt.append(r["id"])
                if len(out) >= limit:
                    break
            frontier = nxt
        return out

    def path(self, a: str, b: str, *, scope_id: str) -> list[dict[str, Any]]:
        """The shortest chain of relations from ``a`` to ``b`` (empty when none within 6)."""
        ia, ib = self.resolve(a, scope_id=scope_id), self.resolve(b, scope_id=scope_id)
        if ia == ib:
            return [{"kind": "entity", "id": ia, "name": self._name(ia, scope_id)}]
        rows = self.db.read("entities/path", scope_id=scope_id, a=ia, b=ib)
        return list(rows[0]["nodes"]) if rows else []

    def review(self, scope_id: str, *, limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
        """Pairs of entities with similar names that were not merged automatically.

        A page: most similar first (ties by the two ids), the first ``offset`` skipped, then at
        most ``limit``.
        """
        return self.db.read(
            "entities/review",
            scope_id=require_text(scope_id, "scope_id", max_len=200),
            skip=int(in_range(offset, "offset", 0, MAX_OFFSET)),
            limit=int(in_range(limit, "limit", 1, 1000)),
        )

    def merge(self, keep: str, absorb: str, *, scope_id: str, actor: str | None = None) -> str:
        """Merge entity ``absorb`` into ``keep`` (mentions, claims and relations move over).

        Returns:
            The id of the operation that records it (undo with :meth:`unmerge`).
        """
        k, x = self.resolve(keep, scope_id=scope_id), self.resolve(absorb, scope_id=scope_id)
        if k == x:
            raise InvalidInput("cannot merge an entity into itself")
        op = str(uuid.uuid4())

        def tx_fn(tx: Tx) -> str:
            capture = footprint.Capture(tx.run, scope_id, entities=[k, x])
            row = tx.run("entities/merge", scope_id=scope_id, keep=k, absorb=x, op=op)[0]
            change = capture.finish()
            if change is None:  # cannot happen: the absorbed entity went
                raise EntityNotFound(absorb, scope_id=scope_id)
            tx.run(
                "operations/record",
                id=op,
                kind="entity_merge",
                scope_id=scope_id,
                actor=actor,
                now=now_utc(),
                entry_ids=[],
                reason=f"merged {row['absorbed'].get('name')!r} into {k}",
                before=json.dumps({**change, "keep": k, "absorbed": x}),
            )
            return op

        return self.db.write_tx(tx_fn)

    def unmerge(self, operation_id: str, *, scope_id: str) -> dict[str, Any]:
        """Undo an entity merge exactly (the same as ``undo`` of its operation).

        The absorbed entity comes back with every property (``first_seen_at``,
        ``last_seen_at``, its embedding), its mentions with their counts and snippets, its
        claims and relation ends; the kept entity gets back its aliases and counts.

        Raises:
            EntityMergeNotFound: No entity merge of that id in the scope.
            InvalidInput: Already undone.
        """
        rows = self.db.read("operations/get", id=operation_id, scope_id=scope_id)
        if not rows or rows[0]["op"]["kind"] != "entity_merge":
            raise EntityMergeNotFound(operation_id, scope_id=scope_id)
        op = rows[0]["op"]
        if op.get("undone_at"):
            raise InvalidInput(f"entity merge {operation_id!r} was already undone")
        before = json.loads(op["before"])
        if footprint.is_exact(before):

            def exact(tx: Tx) -> dict[str, Any]:
                if not tx.run("operations/mark_undone", id=operation_id, now=now_utc()):
                    raise InvalidInput(f"entity merge {operation_id!r} was already undone")
                footprint.revert(tx.run, before)
                return {
                    "entity_id": before["absorbed"],
                    "restored": len(before.get("rels_deleted") or []),
                }

            return self.db.write_tx(exact)
        # a merge recorded before exact undo records: move back what it marked
        absorbed = dict(before["absorbed"])
        for key in ("first_seen_at", "last_seen_at"):
            absorbed.pop(key, None)

        def tx_fn(tx: Tx) -> dict[str, Any]:
            r = tx.run(
                "entities/unmerge",
                scope_id=scope_id,
                keep=before["keep"],
                absorbed=absorbed,
                op=operation_id,
            )
            tx.run("operations/mark_undone", id=operation_id, now=now_utc())
            return {"entity_id": absorbed["id"], "restored": int(r[0]["restored"]) if r else 0}

        return self.db.write_tx(tx_fn)

    def index_entries(
        self,
        scope_id: str,
        pipeline: Pipeline,
        *,
        batch_size: int = 64,
        limit: int = 100_000,
        progress: Callable[[int, int], None] | None = None,
    ) -> dict[str, int]:
        """Extract entities and relations from the scope's entries (those not yet done).

        Mentions go from the entry (``MENTIONS``), relations get ``EVIDENCED_BY`` the entry;
        names resolve as for documents (exact key, then the merge and review bands). Idempotent:
        an entry is done for its content hash, so a re-run extracts nothing.

        Returns:
            ``entries``, ``mentions``, ``relations`` written.
        """
        scope_id = require_text(scope_id, "scope_id", max_len=200)
        todo = self.db.read("entities/unindexed_entries", scope_id=scope_id, limit=limit)
        out = {"entries": 0, "mentions": 0, "relations": 0}
        for i in range(0, len(todo), batch_size):
            part = todo[i : i + batch_size]
            plan = Plan([], [], set(), [])
            reader = CandidateReader(self.db.read, scope_id)
            extractions = pipeline.extractor.extract([str(r["content"] or "") for r in part])
            pipeline.link_entities(plan, [str(r["id"]) for r in part], extractions, reader)

            def tx_fn(tx: Tx, plan: Plan = plan, part: list[dict[str, Any]] = part) -> None:
                model = pipeline.embedder.model_id
                write_links(tx, scope_id=scope_id, plan=plan, model=model, now=now_utc())
                tx.run(
                    "entities/mark_indexed",
                    scope_id=scope_id,
                    rows=[{"id": r["id"], "content_hash": r["content_hash"]} for r in part],
                )

            self.db.write_tx(tx_fn)
            out["entries"] += len(part)
            out["mentions"] += len(plan.mentions)
            out["relations"] += len(plan.relations)
            if progress:
                progress(min(i + batch_size, len(todo)), len(todo))
        return out

    def _name(self, eid: str, scope_id: str) -> str:
        rows = self.db.read("entities/show", scope_id=scope_id, id=eid, limit=1)
        return str(rows[0]["entity"]["name"]) if rows else eid
