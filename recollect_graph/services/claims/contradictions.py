"""Contradiction checks, open conflicts and their resolution, supersession and invalidation.

Invalidation (a deprecated concept weakened, a migration read from git) is
:mod:`.invalidation`, mixed into :class:`Contradictions`.

Every check is a Cypher lookup over the claims of current entries of one scope; the rules that
decide a conflict are :mod:`recollect_graph.nlp.conflicts`. Every change writes an ``Operation``
that ``rg.undo`` reverts exactly.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from recollect_graph.db.client import Tx
from recollect_graph.errors import (
    ContradictionNotFound,
    EntryNotFound,
    InvalidInput,
    NothingToSupersede,
    ScopeViolation,
)
from recollect_graph.models import Entry, Record
from recollect_graph.nlp.claim_lexicon import bag_key, canonical
from recollect_graph.nlp.claims import Claim, ClaimExtractor
from recollect_graph.results import (
    EntrySupersession,
    OpenConflict,
    Resolution,
    Supersession,
)
from recollect_graph.services.claims import store as claim_store
from recollect_graph.services.claims.invalidation import Invalidations
from recollect_graph.services.kernel.times import aware, native, now_utc
from recollect_graph.services.kernel.validation import (
    MAX_OFFSET,
    in_range,
    optional_text,
    require_scope,
    require_text,
)
from recollect_graph.services.knowledge import changesets, footprint
from recollect_graph.services.knowledge.entries import Knowledge
from recollect_graph.services.knowledge.rows import entry_from_row

#: How ``supersede`` words (entity, relation, value) as a statement, by relation. Any other
#: relation is read as a verb phrase: "{entity} {relation} {value}" ("runs on", "is hosted on",
#: "is written in", "lives in"...). The statement goes through the claim extractor, so the
#: relation reaches the same slot as the claims it must retire.
STATEMENT = {
    "is": "The {entity} is {value}.",
    "=": "The {entity} is {value}.",
    "value": "The {entity} is {value}.",
    "attribute": "The {entity} is {value}.",
    "status": "The {entity} is {value}.",
    "enabled": "The {entity} is {value}.",
    "uses": "The {entity} uses {value}.",
    "use": "The {entity} uses {value}.",
    "tool": "The {entity} uses {value}.",
    "build tool": "The {entity} build tool is {value}.",
    "owner": "{value} owns the {entity}.",
    "owns": "{value} owns the {entity}.",
    "owned by": "{value} owns the {entity}.",
    "is owned by": "{value} owns the {entity}.",
    "works_on": "{value} owns the {entity}.",
    "assignee": "{entity} is assigned to {value}.",
    "assigned_to": "{entity} is assigned to {value}.",
    "assigned to": "{entity} is assigned to {value}.",
    "maintainer": "{entity} is maintained by {value}.",
    "lead": "{value} leads the {entity}.",
    "prefers": "{entity} prefers {value}.",
    "created": "{value} created {entity}.",
    "created by": "{value} created {entity}.",
}
#: Every relation name ``supersede`` accepts as such (others are read as verb phrases).
RELATIONS = tuple(sorted(STATEMENT))


class Conflict(Record):
    """A contradiction between a statement and an existing entry."""

    type: str
    existing: Entry
    claim: dict[str, Any]
    existing_claim: dict[str, Any]
    score: float
    reason: str


class ContradictionResult(Record):
    """The outcome of :meth:`Contradictions.check` (nothing is written)."""

    ok: bool
    conflicts: list[Conflict]
    claims: list[dict[str, Any]]


class Contradictions(Invalidations):
    """Checks, conflicts, supersession and invalidation over one knowledge service."""

    def __init__(self, knowledge: Knowledge, extractor: ClaimExtractor) -> None:
        self.knowledge = knowledge
        self.db = knowledge.db
        self.extractor = extractor

    # -- checks --------------------------------------------------------------------------------
    def check(
        self, content: str, *, scope_id: str, owner_id: str | None = None
    ) -> ContradictionResult:
        """Does ``content`` contradict current knowledge in the scope? Writes nothing.

        Only current entries (not retired, not deleted) with confidence above 0.3 are compared,
        and only claims about the same subject (or work item, or tool role): statements about
        different things never conflict.
        """
        content = require_text(content, "content", max_len=200_000)
        scope_id = require_text(scope_id, "scope_id")
        claims = self.extractor.extract(content)
        now = now_utc()
        found = claim_store.find_conflicts(
            self.db.read, claims, scope_id=scope_id, owner_id=owner_id, exclude_ids=[], now=now
        )
        entries = {
            e.id: e for e in self.knowledge.get_many([f[0] for f in found], scope_id=scope_id)
        }
        conflicts = [
            Conflict(
                type=v.type,
                existing=entries[eid],
                claim=new,
                existing_claim=old,
                score=v.score,
                reason=v.reason,
            )
            for eid, v, new, old in found
            if eid in entries
        ]
        return ContradictionResult(
            ok=not conflicts, conflicts=conflicts, claims=[c.to_dict() for c in claims]
        )

    def conflicts(
        self,
        scope_id: str,
        *,
        limit: int = 50,
        offset: int = 0,
        as_of: datetime | str | None = None,
        valid_at: datetime | str | None = None,
    ) -> list[OpenConflict]:
        """Open contradictions of a scope (CONTRADICTS edges between current entries).

        A page: strongest first (then newest, ties by the two ids), the first ``offset`` skipped,
        then at most ``limit``. ``as_of`` (record time): the contradictions open at that moment
        between entries known then; ``valid_at`` (valid time): between entries both true then.
        """
        now = now_utc()
        rows = self.db.read(
            "conflicts/open",
            scope_id=require_text(scope_id, "scope_id"),
            skip=int(in_range(offset, "offset", 0, MAX_OFFSET)),
            limit=int(in_range(limit, "limit", 1, 1000)),
            as_of=aware(as_of, "as_of"),
            valid_at=aware(valid_at, "valid_at"),
            now=now,
        )
        return [
            OpenConflict(
                source=entry_from_row(r["source"], now=now),
                target=entry_from_row(r["target"], now=now),
                type=r["type"],
                score=r["score"],
                reason=r["reason"],
                claim=json.loads(r["claim"]) if r["claim"] else None,
                existing_claim=json.loads(r["existing_claim"]) if r["existing_claim"] else None,
                created_at=native(r["created_at"]),
            )
            for r in rows
        ]

    def resolve(
        self, scope_id: str, a: str, b: str, *, keep: str, forget_loser: bool = False
    ) -> Resolution:
        """Resolve the contradiction between entries ``a`` and ``b`` by keeping ``keep``.

        The loser is superseded by the keeper (retired, ``SUPERSEDES`` edge) and the conflict is
        marked resolved, undoably; with ``forget_loser`` the loser is hard-deleted instead (that
        too can be undone through its own operation). Either way it is one transaction.
        """
        if keep not in (a, b):
            raise InvalidInput("keep must be one of the two entries in conflict")
        loser = b if keep == a else a
        now = now_utc()

        def tx_fn(tx: Tx) -> str:
            # everything the resolution touches is captured before its first step: the one
            # operation puts back the conflict's status as well as the loser
            capture = footprint.Capture(tx.run, scope_id, entries=[a, b])
            before = tx.run(
                "conflicts/set_status", a=a, b=b, status="resolved", resolved_by=keep, now=now
            )
            if not before:
                raise ContradictionNotFound(a, b)
            self._same_scope(tx, [a, b], scope_id)
            reason = f"conflict resolved in favour of {keep}"
            if forget_loser:
                return self.knowledge.forget_in(
                    tx, loser, scope_id, now, capture=capture, reason=reason
                )[1]
            op = self._supersede_tx(
                tx, scope_id, keep, [loser], now, kind="resolve", reason=reason, capture=capture
            )
            if op is None:  # cannot happen: the loser is a current entry of the scope
                raise ContradictionNotFound(a, b)
            return op

        op = self.db.write_tx(tx_fn)
        return Resolution(kept=keep, loser=loser, operation_id=op)

    # -- supersession --------------------------------------------------------------------------
    def supersede(
        self,
        scope_id: str,
        entity: str,
        relation: str,
        new_value: str,
        *,
        owner_id: str = "system",
        create: bool = False,
    ) -> Supersession:
        """Retire what the scope says about (entity, relation) with a value other than the new one.

        (entity, relation, value) is worded as a statement (:data:`STATEMENT`, or "{entity}
        {relation} {value}" for any other verb phrase) and read by the claim extractor, so
        "is", "uses", "owner", "owns", "is owned by", "build tool", "runs on"... reach the slot
        of the claims they are about. Only current entries whose claims about the same subject
        conflict with that statement (the same slot, another value) are retired: demoted
        (confidence 0.1, ``valid_to`` and ``retired_at`` now), and an entry stating the new
        value (found, or written) ``SUPERSEDES`` each. Undo restores the previous state exactly.

        Args:
            scope_id: The scope.
            entity: What the claims are about ("billing service").
            relation: The slot, by name or verb phrase ("owner", "uses", "runs on").
            new_value: The value that now holds.
            owner_id: Owner of the entry written for the new value.
            create: When nothing matches, still write the new value as an entry (no operation).

        Raises:
            InvalidInput: Empty parts, or a statement the extractor reads no claim from.
            NothingToSupersede: No current claim of that slot (and ``create`` is false): nothing
                was written; the error names the scope's closest claims. A repeat (the new
                value already holds, nothing else does) is no error: it returns ``superseded``
                empty, the entry that holds it, and writes nothing.
        """
        scope_id = require_text(scope_id, "scope_id")
        entity = require_text(entity, "entity", max_len=300).strip()
        new_value = require_text(new_value, "new_value", max_len=300).strip()
        rel = require_text(relation, "relation", max_len=100).strip().lower()
        # the caller's words are data, never a format string: braces are kept as they are
        template = STATEMENT.get(rel) or (
            "The {entity} " + rel.replace("{", "{{").replace("}", "}}") + " {value}."
        )
        bare = re.sub(r"^(?:the|a|an)\s+", "", entity, flags=re.I)
        text = template.format(entity=bare, value=new_value)
        text = text[0].upper() + text[1:]
        claims = [c for c in self.extractor.extract(text) if c.polarity > 0]
        if not claims:
            raise InvalidInput(
                f"could not read a claim from {text!r}: give a relation such as "
                f"{', '.join(RELATIONS)} or a verb phrase such as 'runs on'"
            )
        now = now_utc()
        found = claim_store.find_conflicts(
            self.db.read, claims, scope_id=scope_id, owner_id=None, exclude_ids=[], now=now
        )
        keys = {claim_store.index_key(c.subject_key) for c in claims}
        # an attribution ("Ben owns the billing service") is about what is owned: its object
        owned = {
            k
            for c in claims
            if c.predicate == "works_on"
            for k in (c.object_key, claim_store.index_key(c.object_key))
        }
        olds = sorted(
            {
                eid
                for eid, _v, new, old in found
                if old["subject_key"] in keys
                or (old.get("predicate") == "works_on" and old.get("object_key") in owned)
            }
        )
        holders = [
            r["entry_id"]
            for c in claims
            for r in self.db.read(
                "supersede/holders",
                scope_id=scope_id,
                subject_key=claim_store.index_key(c.subject_key),
                predicate=c.predicate,
                object_key=claim_store.index_key(c.object_key),
                now=now,
            )
            if r["entry_id"] not in olds
        ]
        if not olds and holders:  # already in effect (a repeat): nothing to do, nothing written
            return Supersession(new_entry_id=holders[0], created=False, superseded=[],
                                operation_id="")  # fmt: skip
        if not olds and not create:
            closest = self._closest(scope_id, bare, now)
            said = "; ".join(f"{c['entry_id']}: {c['content'][:80]}" for c in closest) or "none"
            raise NothingToSupersede(
                f"nothing current in scope {scope_id!r} says {text!r} about another value "
                f"(nothing changed); closest claims: {said}",
                closest,
            )
        statement = None
        if not holders:
            item = {"content": text, "source": "system", "source_type": "user_stated"}
            statement = self.knowledge.prepare([item], scope_id=scope_id, owner_id=owner_id)

        def tx_fn(tx: Tx) -> Supersession:
            # the new-value entry is written in this transaction: all of it commits, or nothing
            new_id, created = holders[0] if holders else "", False
            # captured before anything is written, so that undo restores them exactly
            capture = footprint.Capture(tx.run, scope_id, entries=[e for e in [*olds, new_id] if e])
            if statement is not None:
                (entry,) = self.knowledge.write_prepared(tx, statement)
                new_id, created = entry.id, bool(entry.created)
            retire = [o for o in olds if o != new_id]
            if not retire:  # create=True and nothing to retire: the entry only, no operation
                return Supersession(new_entry_id=new_id, created=created, superseded=[],
                                    operation_id="")  # fmt: skip
            op = self._supersede_tx(
                tx,
                scope_id,
                new_id,
                retire,
                now,
                kind="supersede",
                created=[new_id] if created else [],
                reason=f"{entity} {rel} {new_value}",
                capture=capture,
            )
            return Supersession(
                new_entry_id=new_id, created=created, superseded=retire, operation_id=op
            )

        return self.db.write_tx(tx_fn)

    def _closest(self, scope_id: str, entity: str, now: Any) -> list[dict[str, str]]:
        words = [w for w in bag_key(entity).split() if len(w) > 2] or [canonical(entity)]
        rows = self.db.read("supersede/closest", scope_id=scope_id, words=words, now=now, limit=5)
        return [{k: str(r[k]) for k in ("entry_id", "content", "subject", "predicate", "object")}
                for r in rows]  # fmt: skip

    def supersede_entry(
        self,
        old_id: str,
        new_id: str,
        *,
        scope_id: str | None = None,
        reason: str | None = None,
    ) -> EntrySupersession:
        """``new_id`` supersedes ``old_id`` (both in ``scope_id``): old retired, edge written.

        Undoable. ``scope_id`` is required: an id of another scope is not found.
        """
        scope_id = require_scope(scope_id)
        if old_id == new_id:
            raise InvalidInput("an entry cannot supersede itself")
        reason = optional_text(reason, "reason")
        now = now_utc()

        def tx_fn(tx: Tx) -> EntrySupersession:
            ends = tx.run("entries/endpoints", source_id=new_id, target_id=old_id)[0]
            if ends["source_scope"] != scope_id:
                raise EntryNotFound(new_id)
            if ends["target_scope"] != scope_id:
                raise EntryNotFound(old_id)
            if ends["source_scope"] != ends["target_scope"]:
                raise ScopeViolation("cannot supersede across scopes")
            op = self._supersede_tx(
                tx, ends["source_scope"], new_id, [old_id], now, kind="supersede", reason=reason
            )
            if op is None:
                raise InvalidInput(f"{old_id} is already superseded by {new_id}: nothing to do")
            return EntrySupersession(new_entry_id=new_id, superseded=[old_id], operation_id=op)

        return self.db.write_tx(tx_fn)

    def _supersede_tx(
        self,
        tx: Tx,
        scope_id: str,
        new_id: str,
        olds: Sequence[str],
        now: Any,
        *,
        kind: str,
        created: Sequence[str] = (),
        reason: str | None = None,
        capture: footprint.Capture | None = None,
    ) -> str | None:
        return changesets.supersede(
            tx.run,
            scope_id,
            new_id,
            olds,
            now,
            kind=kind,
            created=created,
            reason=reason,
            capture=capture,
        )

    def _same_scope(self, tx: Tx, ids: Sequence[str], scope_id: str) -> None:
        rows = tx.run("entries/get_many", ids=list(ids), scope_id=scope_id)
        if len(rows) != len(set(ids)):
            raise EntryNotFound(next(i for i in ids if i not in {r["entry"]["id"] for r in rows}))


def claim_summary(c: Claim) -> str:
    """A claim in a few words."""
    neg = "not " if c.polarity < 0 else ""
    return f"{c.subject_key} {neg}{c.predicate} {c.object_key}"
