"""The knowledge core: remember and remember_many (reads and edges: ops.py; undo: undo.py).

Every write is atomic (one transaction per call or batch) and idempotent: an entry's id is derived
from its scope and content (or source id), so remembering the same thing twice returns the first
entry; connecting twice returns the existing edge. Destructive changes write an ``Operation`` with
the before-state so they can be undone.

The module is a little past 500 lines on purpose: it is one write path (validate, prepare, embed
and parse in parallel batches, classify, fit to the scope's schema, write with its claims and
conflicts in one transaction), and each step reads the previous one's rows.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from recollect_graph.captions import caption
from recollect_graph.db.client import Db, Tx
from recollect_graph.errors import (
    ConstraintViolation,
    EntryNotFound,
    InvalidInput,
    RecollectError,
    ScopeViolation,
)
from recollect_graph.ids import entry_id
from recollect_graph.models import Entry
from recollect_graph.nlp.claims import Claim, ClaimExtractor
from recollect_graph.nlp.classify import classify
from recollect_graph.nlp.embedder import Embedder
from recollect_graph.nlp.type_examples import TypeExamples
from recollect_graph.redaction import redact_value
from recollect_graph.services.claims import store as claim_store
from recollect_graph.services.claims.store import claim_rows, find_conflicts_many
from recollect_graph.services.kernel.hashing import content_hash
from recollect_graph.services.kernel.times import aware, now_utc
from recollect_graph.services.kernel.validation import (
    MAX_CONTENT_CHARS,
    MAX_DESCRIPTION_CHARS,
    MAX_SCOPE_CHARS,
    MAX_SOURCE_ID_CHARS,
    MAX_TITLE_CHARS,
    in_range,
    json_map,
    one_of,
    optional_text,
    require_text,
    tag_list,
)
from recollect_graph.services.knowledge import lifecycle
from recollect_graph.services.knowledge import provenance as context_mod
from recollect_graph.services.knowledge.access import Access
from recollect_graph.services.knowledge.bulk import overlapped
from recollect_graph.services.knowledge.ops import EntryOps
from recollect_graph.services.knowledge.rows import entry_from_row
from recollect_graph.services.knowledge.undo import History, operation_from_row
from recollect_graph.vocabulary import (
    ENTRY_TYPE_LABELS,
    ENTRY_TYPES,
    SOURCE_TYPES,
    SOURCES,
    VALENCES,
)

log = logging.getLogger(__name__)

Progress = Callable[[int, int], None]
#: ``remember_many(in_batch_tx=...)``: runs in each batch's transaction with its entries.
BatchHook = Callable[[Tx, list[Entry]], None]
ON_CONFLICT = ("record", "supersede", "reject")
#: How far ahead of this clock a given ``created_at`` may be (another machine's clock).
CLOCK_SKEW = timedelta(minutes=5)
_REMEMBER_KEYS = frozenset(
    {
        "content",
        "entry_type",
        "auto_classify",
        "tags",
        "summary",
        "source",
        "source_id",
        "metadata",
        "confidence",
        "half_life_days",
        "pinned",
        "title",
        "description",
        "source_type",
        "valid_from",
        "valid_to",
        "created_at",
        "context_hints",
        "emotional_valence",
        "score",
        "force",
        "on_conflict",
        "redact",
    }
)
#: The fields ``redact=True`` cleans of secrets.
_REDACTED_FIELDS = ("content", "title", "description", "summary", "tags", "metadata")


@dataclass(frozen=True)
class PreparedEntries:
    """Entries validated, embedded and with their claims extracted, not yet written.

    Made by :meth:`Knowledge.prepare`, written by :meth:`Knowledge.write_prepared` inside a
    caller's transaction.
    """

    scope_id: str
    now: datetime
    rows: list[dict[str, Any]]
    claims: list[list[Claim]]
    on_conflict: list[str]

    @property
    def ids(self) -> list[str]:
        """The ids the entries will have (derived from scope and content or source id)."""
        return [r["id"] for r in self.rows]


def embed_text(item: Mapping[str, Any]) -> str:
    """What gets embedded: title and description (when present) ahead of the content."""
    parts = [item.get("title"), item.get("description"), item["content"]]
    return ". ".join(str(p) for p in parts if p)


class Knowledge(History, EntryOps):
    """Recollect's knowledge API over the graph.

    Args:
        db: The database client.
        embedder: Embeds content in the same call that stores it.
        capture_context: Whether to capture git/path/OS context when no hints are given.
    """

    def __init__(
        self,
        db: Db,
        embedder: Embedder,
        *,
        extractor: ClaimExtractor | None = None,
        capture_context: bool = True,
    ) -> None:
        self.db = db
        self.embedder = embedder
        self.extractor = extractor
        self.capture_context = capture_context
        #: Whether ``remember_many`` overlaps embedding, parsing and writing of its batches
        #: (``services/knowledge/bulk.py``); off runs them one after the other.
        self.overlap = True
        self.access = Access(db, embedder.calibration)
        #: Types an auto-classified entry no pattern matched by its nearest labelled examples.
        self.type_examples = TypeExamples(embedder)

    # -- remember ----------------------------------------------------------------------------
    def remember(self, content: str, *, scope_id: str, owner_id: str, **opts: Any) -> Entry:
        """Store one entry, embedded and searchable when this returns.

        Args:
            content: The knowledge (non-empty).
            scope_id: Scope (tenant/workspace); required.
            owner_id: Owner; required.
            **opts: ``entry_type`` (kept when given; else "note", or inferred from the content
                with ``auto_classify``), ``auto_classify`` (False), ``tags``, ``summary``,
                ``source`` ("system"), ``source_id``, ``metadata``, ``confidence`` (1.0),
                ``half_life_days`` (7.0), ``pinned`` (False), ``title``, ``description``,
                ``source_type`` ("observed"), ``valid_from``, ``valid_to`` (valid time: when
                it was true; a ``valid_from`` ahead keeps it out of current search until then),
                ``created_at`` (record time, default now: a past moment for historical
                material, so decay and ``as_of`` treat it as that old; refused in the future),
                ``context_hints``,
                ``emotional_valence`` (inferred), ``score`` (5.0, Lore's 0-10 quality),
                ``force`` (False: the same content in a scope returns the existing entry),
                ``on_conflict`` ("record": contradictions with current knowledge become
                ``CONTRADICTS`` edges with their reason; "supersede": the contradicted entries
                are retired and superseded by the new one, undoably; "reject": nothing is
                written and :class:`ContradictionFound` lists the conflicts), ``redact``
                (False: True replaces secrets in content, title, description, summary, tags and
                metadata by ``[REDACTED:<kind>]`` markers before anything else; see
                :mod:`recollect_graph.redaction`).

        Returns:
            The entry; ``created`` is False when it already existed.

        Raises:
            InvalidInput: Bad input (nothing is written).
        """
        return self.remember_many(
            [{"content": content, **opts}], scope_id=scope_id, owner_id=owner_id
        )[0]

    def remember_many(
        self,
        items: Iterable[Mapping[str, Any]],
        *,
        scope_id: str,
        owner_id: str,
        progress: Progress | None = None,
        batch_size: int = 256,
        in_batch_tx: BatchHook | None = None,
        redact: bool = False,
    ) -> list[Entry]:
        """Store many entries: batched embedding, one ``UNWIND`` transaction per batch.

        Every item is validated before anything is written. ``progress(done, total)`` is called
        after each committed batch, so ``done`` counts acknowledged entries only.

        Args:
            items: Dicts of :meth:`remember`'s keyword arguments plus ``content``.
            scope_id: Scope of every entry.
            owner_id: Owner of every entry.
            progress: Called after each committed batch.
            batch_size: Entries per transaction.
            in_batch_tx: Called as ``in_batch_tx(tx, entries)`` inside each batch's
                transaction, after its entries are written (``entries`` in batch order, with
                ``created`` set), so a caller commits its own statements atomically with the
                batch (the learners' cursor). The driver may retry a transaction, so it must be
                idempotent; raising aborts the batch.
            redact: Redact secrets in every item that does not set its own ``redact``.

        Returns:
            The entries in input order.
        """
        scope_id = require_text(scope_id, "scope_id", max_len=MAX_SCOPE_CHARS)
        owner_id = require_text(owner_id, "owner_id", max_len=MAX_SCOPE_CHARS)
        batch_size = int(in_range(batch_size, "batch_size", 1, 100_000))
        rows = self._validated(items, redact=redact)
        total = len(rows)
        out: list[Entry] = []
        batches = [rows[s : s + batch_size] for s in range(0, total, batch_size)]

        def write(batch: list[dict[str, Any]], vectors: list[list[float]], claims: Any) -> None:
            prepared = self._finish_batch(batch, vectors, claims, scope_id, owner_id)
            out.extend(self._write_batch(prepared, in_batch_tx))
            if progress:
                progress(len(out), total)

        if self.overlap:
            overlapped(batches, self._embed_batch, self._parse_batch, write)
        else:
            for b in batches:
                write(b, self._embed_batch(b), self._parse_batch(b))
        return out

    def prepare(
        self, items: Iterable[Mapping[str, Any]], *, scope_id: str, owner_id: str
    ) -> PreparedEntries:
        """Validate, embed and extract the claims of entries a caller writes in its own transaction.

        The work that needs no database lock (validation, embedding, claim extraction, schema
        fit) happens here, before the caller's transaction opens; :meth:`write_prepared` then
        writes the entries inside it, so a multi-step write (supersede, invalidate,
        consolidate) commits its new entries and its other changes together or not at all.

        Args:
            items: Dicts of :meth:`remember`'s keyword arguments plus ``content``.
            scope_id: Scope of every entry.
            owner_id: Owner of every entry.
        """
        scope_id = require_text(scope_id, "scope_id", max_len=MAX_SCOPE_CHARS)
        owner_id = require_text(owner_id, "owner_id", max_len=MAX_SCOPE_CHARS)
        return self._prepare_batch(self._validated(items), scope_id, owner_id)

    def write_prepared(self, tx: Tx, prepared: PreparedEntries) -> list[Entry]:
        """Write prepared entries inside the caller's transaction (idempotent, like remember).

        Returns:
            The entries in input order; ``created`` is False for those that already existed.
        """
        return self._write_rows(tx, prepared)

    def _validated(
        self, items: Iterable[Mapping[str, Any]], *, redact: bool = False
    ) -> list[dict[str, Any]]:
        if isinstance(items, (str, bytes, Mapping)) or not isinstance(items, Iterable):
            raise InvalidInput("items must be a list of maps, each with at least a content")
        rows = []
        for i, item in enumerate(items):
            if not isinstance(item, Mapping):
                raise InvalidInput(
                    f"item {i}: must be a map with at least a content (got {type(item).__name__})"
                )
            rows.append(self._prepare({"redact": redact, **item}, i))
        self._check_unique_titles(rows)
        return rows

    def _prepare(self, item: dict[str, Any], i: int) -> dict[str, Any]:
        unknown = set(item) - _REMEMBER_KEYS
        if unknown:
            raise InvalidInput(f"item {i}: unknown fields {sorted(unknown)}")
        if item.get("redact"):
            item.update({k: redact_value(item[k]) for k in _REDACTED_FIELDS if k in item})
        content = require_text(item.get("content"), f"item {i}: content", max_len=MAX_CONTENT_CHARS)
        hints = item.get("context_hints")
        if hints is None and self.capture_context:
            hints = context_mod.detect()
        if hints is not None and not isinstance(hints, Mapping):
            raise InvalidInput(f"item {i}: context_hints must be a mapping")
        metadata = item.get("metadata") or {}
        if not isinstance(metadata, Mapping):
            raise InvalidInput(f"item {i}: metadata must be a mapping")
        metadata = dict(metadata)
        # an explicit type (an explicit "note" too) is checked first (an unknown one is refused
        # with the list, whatever auto_classify says) and never overridden; only an item with no
        # type is classified (auto_classify) or a "note"
        explicit = item.get("entry_type") is not None
        entry_type = one_of(item.get("entry_type") or "note", f"item {i}: entry_type", ENTRY_TYPES)
        by_example = False
        if item.get("auto_classify") and not explicit:
            entry_type, conf = classify(content, hints)
            metadata["classification_confidence"] = conf
            # no pattern matched: the nearest labelled examples decide once the vector is made
            by_example = entry_type == "note" and conf == 0.0
        valence = item.get("emotional_valence")
        if valence is not None:
            valence = one_of(valence, f"item {i}: emotional_valence", VALENCES)
        title = optional_text(item.get("title"), f"item {i}: title", max_len=MAX_TITLE_CHARS)
        props: dict[str, Any] = {
            "content": content,
            "content_hash": content_hash(content),
            "entry_type": entry_type,
            "title": title,
            "description": optional_text(
                item.get("description"), f"item {i}: description", max_len=MAX_DESCRIPTION_CHARS
            ),
            "summary": optional_text(
                item.get("summary"), f"item {i}: summary", max_len=MAX_DESCRIPTION_CHARS
            ),
            "tags": tag_list(item.get("tags"), f"item {i}: tags"),
            "source": one_of(item.get("source", "system"), f"item {i}: source", SOURCES),
            "source_type": one_of(
                item.get("source_type", "observed"), f"item {i}: source_type", SOURCE_TYPES
            ),
            "source_id": optional_text(
                item.get("source_id"), f"item {i}: source_id", max_len=MAX_SOURCE_ID_CHARS
            ),
            "metadata": json_map(metadata, f"item {i}: metadata"),
            "context_hints": json_map(hints or {}, f"item {i}: context_hints"),
            "confidence": in_range(item.get("confidence", 1.0), f"item {i}: confidence", 0, 1),
            "half_life_days": in_range(
                item.get("half_life_days", 7.0), f"item {i}: half_life_days", 0.01, 36500
            ),
            "pinned": bool(item.get("pinned", False)),
            "emotional_valence": lifecycle.infer_valence(entry_type, metadata, valence),
            "score": in_range(item.get("score", 5.0), f"item {i}: score", 0, 10),
            "valid_from": aware(item.get("valid_from"), f"item {i}: valid_from"),
            "valid_to": aware(item.get("valid_to"), f"item {i}: valid_to"),
        }
        if props["valid_from"] and props["valid_to"] and props["valid_to"] <= props["valid_from"]:
            raise InvalidInput(f"item {i}: valid_to must be after valid_from")
        created = aware(item.get("created_at"), f"item {i}: created_at")
        if created is not None:
            if created > now_utc() + CLOCK_SKEW:
                raise InvalidInput(
                    f"item {i}: created_at is in the future ({created.isoformat()}); a past "
                    "created_at records historical material, a future one is refused"
                )
            props["created_at"] = created
        on_conflict = one_of(
            item.get("on_conflict", "record"), f"item {i}: on_conflict", ON_CONFLICT
        )
        row: dict[str, Any] = {
            "props": props,
            "force": bool(item.get("force", False)),
            "on_conflict": on_conflict,
        }
        if by_example:
            row["by_example"] = {"metadata": metadata, "valence": valence}
        return row

    def _check_unique_titles(self, rows: Sequence[Mapping[str, Any]]) -> None:
        seen: set[str] = set()
        for r in rows:
            t = r["props"]["title"]
            if t is not None and t in seen and not r["force"]:
                raise InvalidInput(f"title {t!r} appears twice in one call")
            if t is not None:
                seen.add(t)

    def _write_batch(
        self, prepared: PreparedEntries, in_batch_tx: BatchHook | None = None
    ) -> list[Entry]:
        scope_id = prepared.scope_id

        def tx_fn(tx: Tx) -> list[Entry]:
            entries = self._write_rows(tx, prepared)
            if in_batch_tx is not None:
                in_batch_tx(tx, entries)
            return entries

        try:
            return self.db.write_tx(tx_fn)
        except ConstraintViolation as e:
            if "title" in str(e):
                raise InvalidInput(
                    f"a memory with one of these titles already exists in scope {scope_id!r} "
                    f"({e}); titles are unique per scope"
                ) from e
            raise

    def _prepare_batch(
        self, batch: list[dict[str, Any]], scope_id: str, owner_id: str
    ) -> PreparedEntries:
        return self._finish_batch(
            batch, self._embed_batch(batch), self._parse_batch(batch), scope_id, owner_id
        )

    def _embed_batch(self, batch: list[dict[str, Any]]) -> list[list[float]]:
        return self.embedder.embed([embed_text(r["props"]) for r in batch])

    def _parse_batch(self, batch: list[dict[str, Any]]) -> list[list[Claim]]:
        if not self.extractor:
            return [[] for _ in batch]
        return self.extractor.extract_many([r["props"]["content"] for r in batch])

    def _finish_batch(
        self,
        batch: list[dict[str, Any]],
        vectors: list[list[float]],
        claims: list[list[Claim]],
        scope_id: str,
        owner_id: str,
    ) -> PreparedEntries:
        """Rows of a batch whose vectors and claims are made (reads the committed scope)."""
        fits = self._schema_fits(batch, vectors, scope_id)
        now = now_utc()
        rows = []
        for i, (r, vec, fit) in enumerate(zip(batch, vectors, fits, strict=True)):
            p = dict(r["props"])
            if "by_example" in r:
                p.update(self._type_by_example(vec, **r["by_example"]))
            p.update(
                scope_id=scope_id,
                owner_id=owner_id,
                embedding=vec,
                embedding_model=self.embedder.model_id,
                schema_fit=fit,
                half_life_days=lifecycle.adjust_half_life(p["half_life_days"], fit),
                created_at=p.get("created_at") or now + timedelta(microseconds=i),
            )
            eid = entry_id(
                scope_id, content_sha=p["content_hash"], source_id=p["source_id"], force=r["force"]
            )
            p["id"] = eid
            p["caption"] = caption(p["content"], p.get("title"))
            rows.append(
                {
                    "id": eid,
                    "props": {k: v for k, v in p.items() if v is not None},
                    "type_label": ENTRY_TYPE_LABELS.get(p["entry_type"]),
                }
            )
        return PreparedEntries(
            scope_id=scope_id,
            now=now,
            rows=rows,
            claims=claims,
            on_conflict=[r["on_conflict"] for r in batch],
        )

    def _type_by_example(
        self, vector: list[float], metadata: dict[str, Any], valence: str | None
    ) -> dict[str, Any]:
        """The entry type the nearest labelled examples give an unclassified entry's vector."""
        found = self.type_examples.nearest(vector)
        if found is None or found[0] == "note":
            return {}
        kind, share = found
        meta = {**metadata, "classification_confidence": share, "classified_by": "examples"}
        return {
            "entry_type": kind,
            "metadata": json_map(meta, "metadata"),
            "emotional_valence": lifecycle.infer_valence(kind, meta, valence),
        }

    def _write_rows(self, tx: Tx, prepared: PreparedEntries) -> list[Entry]:
        scope_id, now, claims = prepared.scope_id, prepared.now, prepared.claims
        if not prepared.rows:
            return []
        result = tx.run("entries/remember", rows=prepared.rows)
        created = [(i, res["entry"]["id"]) for i, res in enumerate(result) if res["created"]]
        tx.run(
            "claims/upsert",
            rows=[claim_rows(eid, scope_id, claims[i]) for i, eid in created if claims[i]],
        )
        found: dict[int, list[dict[str, Any]]] = {}
        batch_ids = [res["entry"]["id"] for res in result]
        created_ids = dict(created)
        per_item = find_conflicts_many(
            tx.run,
            [claims[i] if i in created_ids else [] for i in range(len(result))],
            scope_id=scope_id,
            owner_id=None,
            exclude_ids=batch_ids,
            now=now,
        )
        if per_item:
            found = claim_store.act_on_conflicts(
                tx.run,
                per_item,
                {i: prepared.on_conflict[i] for i in per_item},
                created_ids,
                scope_id,
                now,
            )
        return [
            entry_from_row(res["entry"], now=now).model_copy(
                update={"created": res["created"], "conflicts": found.get(i)}
            )
            for i, res in enumerate(result)
        ]

    def _schema_fits(
        self, batch: list[dict[str, Any]], vectors: list[list[float]], scope_id: str
    ) -> list[float]:
        tags = sorted({t for r in batch for t in r["props"]["tags"]})
        stats = self.db.read("entries/scope_tag_stats", scope_id=scope_id, tags=tags)
        n = int(stats[0]["n"]) if stats else 0
        if n == 0:
            return [0.5] * len(batch)
        freq = {r["tag"]: int(r["freq"]) for r in stats if r["tag"] is not None}
        sims: dict[int, list[float]] = {
            int(r["i"]): [self.embedder.similarity(float(x)) for x in r["sims"]]
            for r in self.db.read(
                "entries/neighbour_scores",
                rows=[{"i": i, "vector": v} for i, v in enumerate(vectors)],
                scope_id=scope_id,
                k=20,
            )
        }
        return [
            lifecycle.schema_fit(r["props"]["tags"], freq, n, sims.get(i, []))
            for i, r in enumerate(batch)
        ]


__all__ = [
    "EntryNotFound",
    "Knowledge",
    "PreparedEntries",
    "RecollectError",
    "ScopeViolation",
    "operation_from_row",
]
