"""The write plan of one learn run: what will be stored, in which order, in which batches.

Pure functions (no database). The plan is built from the same events the same way every time,
so a run that is interrupted and started again plans exactly what an uninterrupted run plans;
batch boundaries are cut on the whole plan (before known entries are left out), so the resumed
run's batches are the uninterrupted run's batches minus those already committed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from recollect_graph.ids import entry_id
from recollect_graph.learners.base import Event, Extract, Pattern, aware_time
from recollect_graph.redaction import redact, redact_value
from recollect_graph.services.kernel.hashing import content_hash

#: Longest content a learned entry keeps (a huge commit body or note is cut, with a marker).
MAX_CONTENT = 20_000


@dataclass
class PlanItem:
    """One entry to store.

    Attributes:
        kind: ``event``, ``pattern`` or ``summary``.
        extract: The (redacted) extract.
        at: The time the cursor reaches once this item is committed.
        source_id: The stored source id (``<source>:<id>[@revision]``).
        entry_id: The entry's deterministic id.
        revision_prefix: ``<source>:<id>@`` when the item is a revision (older ones retire).
        supersede_ids: Entry ids this item retires.
        migration: The migration pattern this item announces (it supersedes mentions of old).
        exclude_ids: Entries a migration must not retire (the commits that made it).
        cut_before: Start a new batch here (a migration sees every older entry committed).
        source_type: How the entry was come by (observed, inferred, consolidated).
    """

    kind: str
    extract: Extract
    at: datetime | None
    source_id: str
    entry_id: str
    revision_prefix: str | None = None
    supersede_ids: list[str] = field(default_factory=list)
    migration: Pattern | None = None
    exclude_ids: list[str] = field(default_factory=list)
    cut_before: bool = False
    source_type: str = "observed"

    def remember_item(self, source: str) -> dict[str, Any]:
        """The item as :meth:`Knowledge.remember_many` takes it."""
        x = self.extract
        return {
            "content": x.content,
            "entry_type": x.entry_type,
            "emotional_valence": x.valence,
            "tags": list(x.tags),
            "metadata": {**x.metadata, "learned_from": source},
            "source": "system",
            "source_type": self.source_type,
            "source_id": self.source_id,
            "confidence": float(x.confidence),
            "half_life_days": float(x.half_life_days),
            "pinned": bool(x.pinned),
            "valid_from": aware_time(x.valid_from),
            "title": x.title,
            "summary": x.summary,
            "context_hints": {"learned_from": source},
        }

    def preview(self) -> dict[str, Any]:
        """What a dry run shows for this item."""
        x = self.extract
        return {
            "kind": self.kind,
            "source_id": self.source_id,
            "entry_type": x.entry_type,
            "valence": x.valence,
            "tags": list(x.tags),
            "content": x.content if len(x.content) <= 300 else x.content[:297] + "...",
            "supersedes": len(self.supersede_ids) or None,
            "migration": f"{self.migration.old} -> {self.migration.new}"
            if self.migration
            else None,
        }


def clean(x: Extract) -> Extract:
    """The extract with secrets redacted everywhere and over-long content cut."""
    content = redact(x.content)
    if len(content) > MAX_CONTENT:
        content = content[: MAX_CONTENT - 20].rstrip() + "\n[... truncated]"
    return Extract(
        content=content,
        source_id=x.source_id,
        entry_type=x.entry_type,
        valence=x.valence,
        tags=[redact(t) for t in x.tags],
        metadata=redact_value(dict(x.metadata)),
        title=redact(x.title)[:300] if x.title else None,
        summary=redact(x.summary) if x.summary else None,
        confidence=x.confidence,
        half_life_days=x.half_life_days,
        pinned=x.pinned,
        valid_from=x.valid_from,
        revision=x.revision,
        supersedes=list(x.supersedes),
    )


def stored_source_id(source: str, source_id: str) -> str:
    """``<source>:<source_id>`` (once: an id that already has the prefix keeps it)."""
    prefix = f"{source}:"
    return source_id if source_id.startswith(prefix) else prefix + source_id


def _item(
    kind: str, source: str, scope_id: str, x: Extract, at: datetime | None, source_type: str
) -> PlanItem:
    x = clean(x)
    base = stored_source_id(source, x.source_id)
    sid = f"{base}@{x.revision}" if x.revision else base
    eid = entry_id(scope_id, content_sha=content_hash(x.content), source_id=sid, force=False)
    supersede = [
        entry_id(scope_id, content_sha="", source_id=stored_source_id(source, s), force=False)
        for s in x.supersedes
    ]
    return PlanItem(
        kind=kind,
        extract=x,
        at=at,
        source_id=sid,
        entry_id=eid,
        revision_prefix=f"{base}@" if x.revision else None,
        supersede_ids=[s for s in supersede if s != eid],
        source_type=source_type,
    )


def pattern_extract(source: str, p: Pattern) -> Extract:
    """The entry a pattern becomes: a pinned deprecation for migrations, else an observation."""
    evidence = [_evidence(e) for e in p.events[:10]]
    more = f"\n... and {len(p.events) - 10} more" if len(p.events) > 10 else ""
    lines = "\n".join(f"- {e}" for e in evidence if e) + more
    meta = {"pattern": p.type, "events": [e.key for e in p.events][:100]}
    if p.type == "migration" and p.old and p.new:
        meta.update(old=p.old, new=p.new)
        text = f"DEPRECATED: {p.old} has been replaced by {p.new}. {p.summary}."
        return Extract(
            content="\n\n".join(s for s in (text, p.details, lines and "Evidence:\n" + lines) if s),
            source_id=f"migration:{p.identity()}",
            entry_type="decision",
            valence="neutral",
            tags=[source, "migration", f"deprecated:{p.old.lower()}", f"adopted:{p.new.lower()}"],
            metadata=meta,
            summary=f"{p.new} replaced {p.old}",
            confidence=0.9,
            half_life_days=60.0,
            pinned=True,
            valid_from=max((e.at for e in p.events if e.at), default=None),
        )
    return Extract(
        content="\n\n".join(s for s in (p.summary, p.details, lines and "Seen in:\n" + lines) if s),
        source_id=f"pattern:{p.type}:{p.identity()}",
        entry_type="observation",
        valence="negative" if p.type in ("flaky", "regression") else "neutral",
        tags=[source, "pattern", f"pattern:{p.type}"],
        metadata=meta,
        summary=p.summary,
        confidence=0.8,
        half_life_days=30.0,
    )


def _evidence(e: Event) -> str:
    subject = e.data.get("subject") or e.data.get("title") or e.data.get("test_id")
    return f"{e.key[:12]} {subject}" if subject else e.key[:60]


def build(
    source: str,
    scope_id: str,
    events: Sequence[Event],
    extracts: Mapping[str, Extract],
    patterns: Sequence[Pattern],
    summaries: Sequence[Extract],
) -> tuple[list[PlanItem], int]:
    """The ordered plan: events in order, each pattern right after its last event, summaries last.

    An item whose source id is already planned is dropped.

    Returns:
        The plan and how many duplicates were dropped.
    """
    items: list[PlanItem] = []
    last_at = max((e.at for e in events if e.at is not None), default=None)
    order = {e.key: i for i, e in enumerate(events)}
    by_event: dict[str, PlanItem] = {}
    after: dict[int, list[Pattern]] = {}
    tail: list[Pattern] = []
    for p in patterns:
        idx = [order[e.key] for e in p.events if e.key in order]
        (after.setdefault(max(idx), []) if idx else tail).append(p)
    for i, ev in enumerate(events):
        x = extracts.get(ev.key)
        if x is not None:
            it = _item("event", source, scope_id, x, ev.at, "observed")
            items.append(it)
            by_event[ev.key] = it
        for p in after.get(i, []):
            items.append(_pattern_item(source, scope_id, p, ev.at, by_event))
    for p in tail:
        items.append(_pattern_item(source, scope_id, p, last_at, by_event))
    for x in summaries:
        items.append(_item("summary", source, scope_id, x, last_at, "consolidated"))
    seen: set[str] = set()
    out: list[PlanItem] = []
    for it in items:
        if it.entry_id not in seen:
            seen.add(it.entry_id)
            out.append(it)
    return out, len(items) - len(out)


def _pattern_item(
    source: str, scope_id: str, p: Pattern, at: datetime | None, by_event: Mapping[str, PlanItem]
) -> PlanItem:
    it = _item("pattern", source, scope_id, pattern_extract(source, p), at, "inferred")
    if p.type == "migration" and p.old and p.new:
        it.migration = p
        it.cut_before = True
        it.exclude_ids = [by_event[e.key].entry_id for e in p.events if e.key in by_event]
    return it


def batches(plan: Sequence[PlanItem], size: int) -> list[list[PlanItem]]:
    """Cut the plan into batches of at most ``size``, starting a new batch at each migration."""
    out: list[list[PlanItem]] = []
    cur: list[PlanItem] = []
    for it in plan:
        if cur and (len(cur) >= size or it.cut_before):
            out.append(cur)
            cur = []
        cur.append(it)
    if cur:
        out.append(cur)
    return out
