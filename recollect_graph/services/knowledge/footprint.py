"""Exact undo records: what a destructive change did to the graph, and how to take it back.

A destructive change opens a :class:`Capture` at the start of its transaction with the nodes it
starts from (its seeds: entries, entities, documents, topics). The capture walks from them to
everything the change may touch (their neighbours, and through claims, relations, chunks,
pipeline runs and link suggestions one or two steps further: the entities a claim is about, the
ends of a relation) and records the exact state of those nodes: labels, every property
(embeddings included) and every relationship touching them. When the change is done,
:meth:`Capture.finish` records the same nodes again (plus any the change created) and keeps the
difference: nodes deleted (in full), nodes created, properties and labels altered (the values
before), relationships deleted and created. That difference is the ``Operation``'s before-state;
:func:`revert` applies it backwards in the undo's transaction.

Undone newest first, a change returns the graph to exactly what it was; an older change undone
after later ones puts back only what it altered (later changes to other properties stay).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date, datetime
from typing import Any

from recollect_graph.services.kernel.times import aware, native
from recollect_graph.vocabulary import KEY_LABELS

Run = Callable[..., list[dict[str, Any]]]

#: The format version of a before-state written by this module.
VERSION = 2
#: An operation recorded batch by batch (an import) keeps each batch's difference in its own
#: property, named this prefix and the batch's number (``before_part_000001``...): its
#: ``before`` then says ``{"v": 2, "parts": PART_PREFIX}``. Rewriting one growing before-state
#: per batch cost the transaction log the whole record every batch (2.6 GB of logs for a 100k
#: import, quadratic in its size; the likely cause of a 1M import that failed at ~400k).
PART_PREFIX = "before_part_"
#: Labels the walk goes through: what belongs to the node it hangs off (a claim to its entry, a
#: relation to its evidence, a chunk to its document), so their own neighbours may change too.
THROUGH = frozenset({"Claim", "Relation", "Chunk", "PipelineRun", "LinkSuggestion"})
#: How many steps the walk takes from a seed.
DEPTH = 3

Key = tuple[str, str, str]


class Capture:
    """The before-state of a destructive change, taken at the start of its transaction.

    Args:
        run: The transaction's ``run``.
        scope_id: The scope the change is in.
        entries, entities, documents, topics: The seeds, by id.
        walk: Whether to walk from the seeds (False: only the seeds and their relationships,
            for changes that alter properties only, such as a soft delete).
    """

    def __init__(
        self,
        run: Run,
        scope_id: str,
        *,
        entries: Iterable[str] = (),
        entities: Iterable[str] = (),
        documents: Iterable[str] = (),
        topics: Iterable[str] = (),
        walk: bool = True,
    ) -> None:
        self.run = run
        self.scope_id = scope_id
        self.walk = walk
        self.eids: set[str] = set()
        self.nodes: dict[str, dict[str, Any]] = {}
        self.rels: dict[str, dict[str, Any]] = {}
        self.add(entries=entries, entities=entities, documents=documents, topics=topics)

    def add(
        self,
        *,
        entries: Iterable[str] = (),
        entities: Iterable[str] = (),
        documents: Iterable[str] = (),
        topics: Iterable[str] = (),
    ) -> None:
        """Take in more seeds (before the change touches them)."""
        eids = self._seeds(entries, entities, documents, topics)
        self.add_eids(self._footprint(eids))

    def finish(self, *, made: Mapping[str, tuple[str, str]] | None = None) -> dict[str, Any] | None:
        """The change's difference, after it (``None`` when it changed nothing).

        Only the nodes captured before are compared (and every relationship touching them, so
        one the change drew to a new node is recorded as created). Entries a change wrote
        otherwise are not part of it: the caller records their ids, and undo deletes them with
        everything derived from them first.

        ``made`` (element id -> ``(key label, id)``) names the nodes the change created when
        the statement that created them says so and drew no relationship to them (an import's
        node batch): they are recorded as created.
        """
        after_nodes, after_rels = self._state(self.eids)
        for eid, (label, key_id) in (made or {}).items():
            if eid not in self.eids:
                key = [label, key_id, self.scope_id]
                after_nodes[eid] = {"key": key, "labels": [], "props": {}}
        return diff(self.nodes, self.rels, after_nodes, after_rels)

    def add_eids(self, eids: Iterable[str]) -> None:
        """Take in nodes by element id (found by the caller in this transaction), unwalked."""
        new = set(eids) - self.eids
        if not new:
            return
        self.eids |= new
        nodes, rels = self._state(new)
        for eid, n in nodes.items():
            self.nodes.setdefault(eid, n)
        for rid, r in rels.items():
            self.rels.setdefault(rid, r)

    # -- internals ---------------------------------------------------------------------------
    def _seeds(self, *ids: Iterable[str]) -> set[str]:
        entries, entities, documents, topics = (list(x) for x in ids)
        if not (entries or entities or documents or topics):
            return set()
        rows = self.run(
            "changes/seeds",
            scope_id=self.scope_id,
            entry_ids=entries,
            entity_ids=entities,
            document_ids=documents,
            topic_ids=topics,
        )
        return {r["eid"] for r in rows}

    def _footprint(self, seeds: set[str]) -> set[str]:
        found = set(seeds)
        if not self.walk:
            return found
        frontier = set(seeds)
        for _ in range(DEPTH):
            if not frontier:
                break
            rows = self.run("changes/neighbours", eids=sorted(frontier))
            frontier = set()
            for r in rows:
                if r["eid"] in found:
                    continue
                found.add(r["eid"])
                if THROUGH.intersection(r["labels"]):
                    frontier.add(r["eid"])
        return found

    def _state(self, eids: set[str]) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
        if not eids:
            return {}, {}
        row = self.run("changes/capture", eids=sorted(eids), key_labels=list(KEY_LABELS))[0]
        nodes = {
            n["eid"]: {
                "key": [n["label"], n["id"], n["scope_id"]],
                "labels": sorted(n["labels"]),
                "props": jsonable(n["props"]),
            }
            for n in row["nodes"]
        }
        rels = {
            r["rid"]: {
                "rid": r["rid"],
                "type": r["type"],
                "start": list(r["start"]),
                "end": list(r["end"]),
                "a_eid": r["a_eid"],
                "b_eid": r["b_eid"],
                "props": jsonable(r["props"]),
            }
            for r in row["rels"]
        }
        return nodes, rels


def rel_changes(changed: Iterable[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The difference of a change that only wrote relationships and reports each one it wrote.

    ``changed`` holds, per relationship created or altered, its ``type``, ``start`` and ``end``
    (``[key label, id, scope_id]``), its properties ``before`` (``None`` when it is new) and
    ``after``: the same record :func:`diff` makes from a capture of its ends before and after
    (an altered relationship is deleted with its old properties and created with its new
    ones), without reading the ends' other relationships.
    """
    created: list[dict[str, Any]] = []
    deleted: list[dict[str, Any]] = []
    for c in changed:
        row = {"type": c["type"], "start": list(c["start"]), "end": list(c["end"])}
        if c["before"] is not None:
            deleted.append({**row, "props": jsonable(c["before"])})
        created.append({**row, "props": jsonable(c["after"])})
    return _record([], [], [], deleted, created)


def recorded_before(op: Mapping[str, Any]) -> dict[str, Any]:
    """An operation's before-state, its parts (an import's batches) gathered in order."""
    before: dict[str, Any] = json.loads(op["before"])
    prefix = before.get("parts")
    if isinstance(prefix, str) and prefix:
        keys = sorted(k for k in op if k.startswith(prefix))
        before = {**before, "batches": [json.loads(op[k]) for k in keys]}
    return before


def part_key(number: int) -> str:
    """The property that holds batch ``number`` (from 1) of an operation recorded in parts."""
    return f"{PART_PREFIX}{number:06d}"


def diff(
    before_nodes: Mapping[str, dict[str, Any]],
    before_rels: Mapping[str, dict[str, Any]],
    after_nodes: Mapping[str, dict[str, Any]],
    after_rels: Mapping[str, dict[str, Any]],
) -> dict[str, Any] | None:
    """What changed between two captures (JSON-ready), or ``None`` when nothing did."""
    deleted = [
        {"key": n["key"], "labels": n["labels"], "props": n["props"]}
        for eid, n in before_nodes.items()
        if eid not in after_nodes
    ]
    created = [n["key"] for eid, n in after_nodes.items() if eid not in before_nodes]
    altered = []
    for eid, b in before_nodes.items():
        a = after_nodes.get(eid)
        if a is None or (a["props"] == b["props"] and a["labels"] == b["labels"]):
            continue
        altered.append(
            {
                "key": b["key"],
                "set": {k: v for k, v in b["props"].items() if a["props"].get(k, _NONE) != v},
                "unset": sorted(k for k in a["props"] if k not in b["props"]),
                "add_labels": sorted(set(b["labels"]) - set(a["labels"])),
                "drop_labels": sorted(set(a["labels"]) - set(b["labels"])),
            }
        )

    def same(x: Mapping[str, Any], y: Mapping[str, Any]) -> bool:
        return bool(x["props"] == y["props"] and x["type"] == y["type"])

    rels_deleted = [
        _rel_row(r)
        for rid, r in before_rels.items()
        if rid not in after_rels or not same(r, after_rels[rid])
    ]
    rels_created = [
        _rel_row(r)
        for rid, r in after_rels.items()
        if rid not in before_rels or not same(r, before_rels[rid])
    ]
    return _record(deleted, created, altered, rels_deleted, rels_created)


def _record(
    nodes_deleted: list[Any],
    nodes_created: list[Any],
    nodes_altered: list[Any],
    rels_deleted: list[Any],
    rels_created: list[Any],
) -> dict[str, Any] | None:
    """A difference as recorded (``None`` when it holds nothing)."""
    if not (nodes_deleted or nodes_created or nodes_altered or rels_deleted or rels_created):
        return None
    return {
        "v": VERSION,
        "nodes_deleted": nodes_deleted,
        "nodes_created": nodes_created,
        "nodes_altered": nodes_altered,
        "rels_deleted": rels_deleted,
        "rels_created": rels_created,
    }


def revert(run: Run, change: Mapping[str, Any]) -> None:
    """Apply a recorded difference backwards (inside the undo's transaction).

    Relationships the change made go, then the nodes it made; the nodes it deleted come back
    with their labels and properties, altered properties and labels get their old values, and
    the relationships it deleted come back with theirs.
    """
    rels_created = change.get("rels_created") or []
    rels_deleted = change.get("rels_deleted") or []
    keys = [tuple(r["start"]) for r in (*rels_created, *rels_deleted)]
    keys += [tuple(r["end"]) for r in (*rels_created, *rels_deleted)]
    keys += [tuple(k) for k in change.get("nodes_created") or []]
    keys += [tuple(n["key"]) for n in change.get("nodes_altered") or []]
    keys += [tuple(n["key"]) for n in change.get("nodes_deleted") or []]
    where = _locate(run, keys)
    drop = [_rel_params(r, where) for r in rels_created]
    if rows := [r for r in drop if r is not None]:
        run("changes/drop_rels", rows=rows)
    gone = [where[tuple(k)] for k in change.get("nodes_created") or [] if tuple(k) in where]
    if gone:
        run("changes/drop_nodes", eids=gone)
        for k in change.get("nodes_created") or []:
            where.pop(tuple(k), None)
    again = [n for n in change.get("nodes_deleted") or [] if tuple(n["key"]) in where]
    if again:  # deleted, then written anew by the change: exactly as they were
        run(
            "changes/reset_nodes",
            rows=[
                {"eid": where[tuple(n["key"])], "labels": n["labels"], "props": restore(n["props"])}
                for n in again
            ],
        )
    back = [n for n in change.get("nodes_deleted") or [] if tuple(n["key"]) not in where]
    if back:
        made = run(
            "changes/create_nodes",
            rows=[{"labels": n["labels"], "props": restore(n["props"])} for n in back],
        )
        for n, m in zip(back, made, strict=True):
            where[tuple(n["key"])] = m["eid"]
    altered = [
        {
            "eid": where[tuple(n["key"])],
            "set": restore(n["set"]),
            "unset": n["unset"],
            "add_labels": n["add_labels"],
            "drop_labels": n["drop_labels"],
        }
        for n in change.get("nodes_altered") or []
        if tuple(n["key"]) in where
    ]
    if altered:
        run("changes/restore_nodes", rows=altered)
    make = [_rel_params(r, where) for r in rels_deleted]
    if rows := [r for r in make if r is not None]:
        run("changes/create_rels", rows=rows)


def deleted_turns(before: Mapping[str, Any]) -> list[str]:
    """The ids of the session turns a recorded change deleted (over all its batches)."""
    return [
        str(n["key"][1])
        for change in before.get("batches") or [before]
        for n in change.get("nodes_deleted") or []
        if "Turn" in (n.get("labels") or []) and n["key"][0] == "Entry"
    ]


def absent(run: Run, scope_id: str, keys: Iterable[tuple[str, str]]) -> list[list[str]]:
    """Which of ``(key label, id)`` are not in the scope now (what a change is about to create)."""
    wanted = sorted(set(keys))
    there = _locate(run, [(k, i, scope_id) for k, i in wanted])
    return [[k, i] for k, i in wanted if (k, i, scope_id) not in there]


def drop_created(run: Run, scope_id: str, keys: Iterable[Sequence[str]]) -> None:
    """Delete the nodes a change created, named by ``(key label, id)`` (undo's first step)."""
    where = _locate(run, [(k, i, scope_id) for k, i in keys])
    if where:
        run("changes/drop_nodes", eids=sorted(where.values()))


def record(
    run: Run,
    change: Mapping[str, Any],
    *,
    kind: str,
    scope_id: str,
    now: datetime,
    entry_ids: Sequence[str],
    reason: str | None = None,
    actor: str | None = None,
    extra: Mapping[str, Any] | None = None,
) -> str:
    """Write the ``Operation`` holding a recorded difference; returns its id."""
    op_id = str(uuid.uuid4())
    run(
        "operations/record",
        id=op_id,
        kind=kind,
        scope_id=scope_id,
        actor=actor,
        now=now,
        entry_ids=list(entry_ids),
        reason=reason,
        before=json.dumps({**change, **(extra or {})}),
    )
    return op_id


def is_exact(before: Mapping[str, Any]) -> bool:
    """Whether an operation's before-state is a difference recorded by this module."""
    return bool(before.get("v") == VERSION)


def jsonable(props: Mapping[str, Any]) -> dict[str, Any]:
    """Properties as JSON values (temporal values tagged so :func:`restore` types them back)."""
    return {k: _to_json(v) for k, v in props.items()}


def restore(props: Mapping[str, Any]) -> dict[str, Any]:
    """The inverse of :func:`jsonable`."""
    return {k: _from_json(v) for k, v in props.items()}


_NONE = object()


def _to_json(v: Any) -> Any:
    v = native(v)
    if isinstance(v, datetime):
        return {"$dt": v.isoformat()}
    if isinstance(v, date):
        return {"$date": v.isoformat()}
    if isinstance(v, list | tuple):
        return [_to_json(x) for x in v]
    return v


def _from_json(v: Any) -> Any:
    if isinstance(v, dict) and "$dt" in v:
        return aware(v["$dt"], "value")
    if isinstance(v, dict) and "$date" in v:
        return date.fromisoformat(v["$date"])
    if isinstance(v, list):
        return [_from_json(x) for x in v]
    return v


def _rel_row(r: Mapping[str, Any]) -> dict[str, Any]:
    return {"type": r["type"], "start": r["start"], "end": r["end"], "props": r["props"]}


def _locate(run: Run, keys: Iterable[tuple[Any, ...]]) -> dict[tuple[Any, ...], str]:
    wanted = sorted({k for k in keys if k[0] is not None and k[1] is not None}, key=str)
    if not wanted:
        return {}
    rows = run(
        "changes/locate",
        rows=[{"label": k[0], "id": k[1], "scope_id": k[2]} for k in wanted],
    )
    return {(r["label"], r["id"], r["scope_id"]): r["eid"] for r in rows}


def _rel_params(
    r: Mapping[str, Any], where: Mapping[tuple[Any, ...], str]
) -> dict[str, Any] | None:
    a, b = where.get(tuple(r["start"])), where.get(tuple(r["end"]))
    if a is None or b is None:
        return None
    return {"type": r["type"], "a": a, "b": b, "props": restore(r["props"])}
