"""Consolidation: merge near-duplicates, propose conflict resolutions, archive what decayed.

``consolidate(scope_id, dry_run=True)`` only proposes. Entries whose claims conflict are never
near-duplicates; each open conflict gets a proposed resolution (the newer entry wins, with the
reason). Applying writes, per near-duplicate cluster, a ``consolidated`` entry (worded as its
newest member) that ``DERIVED_FROM`` each member and supersedes them, applies the resolutions
(conflict resolved, the older entry superseded by the newer), and
archives (retires) entries whose strength fell below the threshold *and* that carry a negative
signal (low confidence or a bad outcome); pinned entries are never archived, and an entry is
never archived just because nobody retrieved it. All of it is one undoable operation, written in
one transaction (the consolidated entries included).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from recollect_graph.db.client import Tx
from recollect_graph.nlp.conflicts import judge
from recollect_graph.results import ConsolidationReport, Merge, ProposedResolution
from recollect_graph.services.claims.contradictions import Contradictions
from recollect_graph.services.kernel.times import now_utc
from recollect_graph.services.kernel.validation import in_range, require_text
from recollect_graph.services.knowledge import footprint
from recollect_graph.services.knowledge.entries import Knowledge, PreparedEntries
from recollect_graph.services.knowledge.rows import entry_from_row

_TOKEN = re.compile(r"\w{2,}")


def jaccard(a: str, b: str) -> float:
    """Overlap of the word sets of two texts."""
    sa, sb = set(_TOKEN.findall(a.lower())), set(_TOKEN.findall(b.lower()))
    if not sa and not sb:
        return 1.0
    return len(sa & sb) / len(sa | sb)


def clusters(pairs: list[tuple[str, str]]) -> list[list[str]]:
    """Connected groups of ids (union-find over pairs), largest first."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in pairs:
        parent[find(a)] = find(b)
    groups: dict[str, list[str]] = {}
    for x in parent:
        groups.setdefault(find(x), []).append(x)
    return sorted((sorted(g) for g in groups.values() if len(g) > 1), key=len, reverse=True)


class Consolidation:
    """Proposes and applies merges, resolutions and archiving for one scope."""

    def __init__(self, knowledge: Knowledge, contradictions: Contradictions) -> None:
        self.knowledge = knowledge
        self.contradictions = contradictions
        self.db = knowledge.db

    def consolidate(
        self,
        scope_id: str,
        *,
        dry_run: bool = True,
        similarity: float = 0.9,
        overlap: float = 0.5,
        decay_threshold: float = 0.05,
        limit: int = 2000,
    ) -> ConsolidationReport:
        """Find (and with ``dry_run=False`` apply) merges, resolutions and archiving.

        Returns:
            The merges, resolutions and archiving proposed; with ``dry_run=False`` also the
            operation that undoes them and the consolidated entries written.
        """
        scope_id = require_text(scope_id, "scope_id")
        similarity = in_range(similarity, "similarity", 0.5, 1.0)
        overlap = in_range(overlap, "overlap", 0.0, 1.0)
        rows = self.db.read(
            "consolidate/near_pairs",
            scope_id=scope_id,
            limit=int(limit),
            k=10,
            similarity=self.knowledge.embedder.raw_similarity(similarity),
        )
        open_conflicts = self.contradictions.conflicts(scope_id, limit=1000)
        # entries whose claims conflict are never near-duplicates, however alike their words
        clash = {frozenset((c.source.id, c.target.id)) for c in open_conflicts}
        near = [
            r
            for r in rows
            if jaccard(r["a_text"], r["b_text"]) >= overlap
            and frozenset((r["a"], r["b"])) not in clash
        ]
        claims = self._claims({i: t for r in near for i, t in ((r["a"], r["a_text"]),
                                                              (r["b"], r["b_text"]))})  # fmt: skip
        pairs = [
            (r["a"], r["b"])
            for r in near
            if not any(judge(n, o) is not None for n in claims[r["b"]] for o in claims[r["a"]])
            and not any(judge(n, o) is not None for n in claims[r["a"]] for o in claims[r["b"]])
        ]
        cal = self.knowledge.embedder.calibration
        sims = {(r["a"], r["b"]): cal.score(float(r["similarity"])) for r in rows}
        merges = [
            Merge(
                members=group,
                similarity=round(
                    min(s for (a, b), s in sims.items() if a in group and b in group), 4
                ),
            )
            for group in clusters(pairs)
        ]
        resolutions = [
            ProposedResolution(
                keep=c.source.id if c.source.created_at >= c.target.created_at else c.target.id,
                drop=c.target.id if c.source.created_at >= c.target.created_at else c.source.id,
                type=c.type,
                reason=f"newer wins: {c.reason}" if c.reason else "newer wins",
            )
            for c in open_conflicts
        ]
        now = now_utc()
        weak = [
            entry_from_row(r["entry"], now=now)
            for r in self.db.read("consolidate/weak_entries", scope_id=scope_id)
        ]
        archive = [e.id for e in weak if (e.strength or 0.0) < decay_threshold]
        out = ConsolidationReport(
            scope_id=scope_id, merges=merges, resolutions=resolutions, archive=archive
        )
        if dry_run or (not merges and not archive and not resolutions):
            return out
        return self._apply(scope_id, out)

    def _claims(self, texts: dict[str, str]) -> dict[str, list[Any]]:
        """The claims of each text (one batched extraction): conflicting ones never merge."""
        ids = list(texts)
        found = self.contradictions.extractor.extract_many([texts[i] for i in ids])
        return dict(zip(ids, found, strict=True))

    def _apply(self, scope_id: str, out: ConsolidationReport) -> ConsolidationReport:
        """Write every merge, the archiving and the ``Operation`` in one transaction.

        The consolidated entries are embedded before the transaction opens and written in it
        with the retirements, the ``DERIVED_FROM``/``SUPERSEDES`` edges and the operation, so a
        crash leaves either all of it or nothing (a re-run then starts from the same graph and
        finds the same merges). Their ids are derived from scope and content, so a consolidated
        entry is never written twice.
        """
        archive = out.archive
        prepared: list[PreparedEntries] = []
        members_of: list[list[str]] = []
        by_owner: dict[str, list[tuple[dict[str, Any], list[str]]]] = {}
        for m in out.merges:
            members = self.knowledge.get_many(m.members, scope_id=scope_id)
            if len(members) < 2:
                continue
            # the newest member's wording stands for the group (not the longest)
            longest = max(members, key=lambda e: (e.created_at, len(e.content)))
            kind = Counter(e.entry_type for e in members).most_common(1)[0][0]
            note = f"(consolidated from {len(members)} related entries)"
            item = {
                "content": f"{longest.content}\n\n{note}",
                "entry_type": kind,
                "source_type": "consolidated",
                "tags": sorted({t for e in members for t in e.tags}),
                "metadata": {"consolidated_from": [e.id for e in members]},
                "confidence": 0.8,
                "half_life_days": 14.0,
            }
            by_owner.setdefault(longest.owner_id, []).append((item, [e.id for e in members]))
        for owner, group in by_owner.items():
            prepared.append(
                self.knowledge.prepare([g[0] for g in group], scope_id=scope_id, owner_id=owner)
            )
            members_of.extend(g[1] for g in group)
        now = now_utc()

        def tx_fn(tx: Tx) -> tuple[str | None, list[str]]:
            merged = {i for ids in members_of for i in ids}
            resolve = [r for r in out.resolutions if r.keep not in merged and r.drop not in merged]
            # what it retires is captured before anything is written: undo restores it exactly
            capture = footprint.Capture(
                tx.run,
                scope_id,
                entries=sorted(merged) + archive + [i for r in resolve for i in (r.keep, r.drop)],
            )
            written = [e for p in prepared for e in self.knowledge.write_prepared(tx, p)]
            created = [e.id for e in written if e.created]
            plans = [(e.id, ids) for e, ids in zip(written, members_of, strict=True)]
            drops = [r.drop for r in resolve if r.drop not in archive]
            touched = [i for _, ids in plans for i in ids] + archive + drops
            capture.add(entries=[e.id for e in written])
            for r in resolve:  # newer wins: the conflict resolved, the older one superseded
                before = tx.run("conflicts/set_status", a=r.keep, b=r.drop, status="resolved",
                                resolved_by=r.keep, now=now)  # fmt: skip
                if not before:
                    continue
                tx.run("supersede/retire", ids=[r.drop], scope_id=scope_id, now=now, by=r.keep)
                tx.run(
                    "supersede/link",
                    rows=[{"source_id": r.keep, "target_id": r.drop, "reason": r.reason}],
                    rel_type="SUPERSEDES",
                    origin="consolidate",
                    now=now,
                )
            for new_id, ids in plans:
                tx.run("supersede/retire", ids=ids, scope_id=scope_id, now=now, by=new_id)
                for rel in ("DERIVED_FROM", "SUPERSEDES"):
                    tx.run(
                        "supersede/link",
                        rows=[
                            {"source_id": new_id, "target_id": i, "reason": "consolidated"}
                            for i in ids
                        ],
                        rel_type=rel,
                        origin="consolidate",
                        now=now,
                    )
            if archive:
                tx.run("supersede/retire", ids=archive, scope_id=scope_id, now=now, by=None)
            change = capture.finish()
            if change is None:  # nothing to merge, archive or resolve: no operation
                return None, [p[0] for p in plans]
            op = footprint.record(
                tx.run,
                change,
                kind="consolidate",
                scope_id=scope_id,
                now=now,
                entry_ids=touched,
                reason="consolidation",
                extra={"created_entries": created},
            )
            return op, [p[0] for p in plans]

        op, consolidated = self.db.write_tx(tx_fn)
        return out.model_copy(
            update={"applied": True, "operation_id": op, "consolidated_ids": consolidated}
        )
