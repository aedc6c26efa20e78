"""Writing a learn plan: one transaction per batch, with its retirements and its cursor step.

Each batch goes through ``Knowledge.remember_many(in_batch_tx=...)``; :class:`BatchStep` runs
inside that transaction after the entries are written: older revisions and reverted items are
retired, a migration's deprecation entry supersedes the scope's entries that mention the
replaced tool (through the contradiction service's change sets, so ``rg.undo`` reverts it), and
the cursor advances. Either all of that commits, or none of it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from recollect_graph.db.client import Tx
from recollect_graph.learners import plan as planning
from recollect_graph.learners.base import Extract, aware_time
from recollect_graph.learners.result import LearnResult
from recollect_graph.models import Entry
from recollect_graph.services.kernel import fulltext
from recollect_graph.services.kernel.times import native, now_utc
from recollect_graph.services.knowledge import changesets
from recollect_graph.services.knowledge.entries import Knowledge
from recollect_graph.services.search.hybrid import lucene_query

#: ``progress(source, done, total)``: called once before the first batch and after each commit.
LearnProgress = Callable[[str, int, int], None]


class PlanWriter:
    """Stores a plan's new items in batches, the cursor advancing with each.

    Args:
        knowledge: Where entries go.
    """

    def __init__(self, knowledge: Knowledge) -> None:
        self.knowledge = knowledge
        self.db = knowledge.db

    def write(
        self,
        name: str,
        cid: str,
        scope_id: str,
        owner_id: str,
        start: datetime | None,
        items: Sequence[planning.PlanItem],
        known: set[str],
        last_at: datetime | None,
        res: LearnResult,
        progress: LearnProgress | None,
        size: int,
    ) -> None:
        """Write the items of ``items`` not in ``known``; ``res`` gets the counts.

        Args:
            name: The learner's source name.
            cid: The cursor id.
            scope_id: Scope of every entry.
            owner_id: Owner of every entry.
            start: Where the run started (kept on the cursor while the run is open).
            items: The whole plan (batch boundaries are cut on it).
            known: Entry ids that already exist (left out).
            last_at: The newest event time of the run (the cursor's final position).
            res: The result to fill.
            progress: ``progress(source, done, total)``.
            size: Entries per batch.
        """
        todo = [
            (full, [it for it in full if it.entry_id not in known])
            for full in planning.batches(items, size)
        ]
        total = sum(len(t) for _, t in todo)
        if total == 0:
            rows = self.db.write(
                "learners/cursor_advance",
                id=cid,
                scope_id=scope_id,
                source=name,
                position=last_at,
                open=False,
                learned=0,
                now=now_utc(),
            )
            res.position = native(rows[0]["cursor"].get("position")) if rows else res.position
            return
        self.db.write(
            "learners/cursor_open",
            id=cid,
            scope_id=scope_id,
            source=name,
            run_since=start,
            now=now_utc(),
        )
        if progress:
            progress(name, 0, total)
        last = max(i for i, (_, t) in enumerate(todo) if t)
        covered: datetime | None = None
        done = 0
        for i, (full, batch) in enumerate(todo):
            covered = max([covered, *(it.at for it in full)], key=_time_key)
            if not batch:
                continue
            closing = i == last
            position = last_at if closing else covered
            self._fix_titles(batch, scope_id)
            hook = BatchStep(cid, scope_id, name, batch, position, not closing)
            entries = self.knowledge.remember_many(
                [it.remember_item(name) for it in batch],
                scope_id=scope_id,
                owner_id=owner_id,
                batch_size=len(batch),
                in_batch_tx=hook,
            )
            res.learned += sum(1 for e in entries if e.created)
            res.superseded += hook.superseded
            for info in res.patterns:
                info["superseded"] = info.get("superseded", 0) + hook.by_pattern.get(info["key"], 0)
            res.position = hook.position or res.position
            done += len(batch)
            if progress:
                progress(name, done, total)

    def _fix_titles(self, batch: Sequence[planning.PlanItem], scope_id: str) -> None:
        """A title held by another entry of the scope (or twice in the batch) moves to metadata."""
        titled = [it for it in batch if it.extract.title]
        if not titled:
            return
        taken = {
            r["title"]
            for r in self.db.read(
                "learners/titles_taken",
                scope_id=scope_id,
                titles=[it.extract.title for it in titled],
                ids=[it.entry_id for it in titled],
            )
        }
        seen: set[str] = set()
        for it in titled:
            t = it.extract.title
            assert t is not None
            if t in taken or t in seen:
                x = it.extract
                it.extract = Extract(
                    **{**x.__dict__, "title": None, "metadata": {**x.metadata, "title": t}}
                )
            seen.add(t)


class BatchStep:
    """Runs inside a batch's transaction: retirements, migrations, then the cursor step.

    The driver may run a transaction function more than once, so the counts are set, not added.
    """

    def __init__(
        self,
        cid: str,
        scope_id: str,
        source: str,
        batch: Sequence[planning.PlanItem],
        position: datetime | None,
        keep_open: bool,
    ) -> None:
        self.cid, self.scope_id, self.source = cid, scope_id, source
        self.batch, self.target, self.keep_open = batch, position, keep_open
        self.superseded = 0
        self.by_pattern: dict[str, int] = {}
        self.position: datetime | None = None

    def __call__(self, tx: Tx, entries: list[Entry]) -> None:
        """Retire what the batch's new entries replace, then advance the cursor."""
        now = now_utc()
        self.superseded, self.by_pattern = 0, {}
        made = [(it, e) for it, e in zip(self.batch, entries, strict=True) if e.created]
        batch_ids = {e.id for e in entries}
        revisions = [
            {"new_id": e.id, "prefix": it.revision_prefix} for it, e in made if it.revision_prefix
        ]
        if revisions:
            for r in tx.run("learners/revisions", scope_id=self.scope_id, rows=revisions):
                self._retire(
                    tx,
                    r["new_id"],
                    r["old_ids"],
                    now,
                    "supersede",
                    "a newer revision of the same item",
                )
        for it, e in made:
            if it.supersede_ids:
                rows = tx.run("learners/existing", scope_id=self.scope_id, ids=it.supersede_ids)
                olds = [r["id"] for r in rows if r["current"]]
                self._retire(tx, e.id, olds, now, "supersede", f"{it.source_id} supersedes it")
            p = it.migration
            if p is not None and p.old and p.new:
                lucene = lucene_query(p.old)
                if lucene is None:
                    continue
                found = tx.run(
                    "supersede/find_mentions",
                    scope_id=self.scope_id,
                    lucene=fulltext.in_scope(lucene, self.scope_id),
                    phrase=p.old.lower(),
                    limit=10_000,
                )
                skip = batch_ids | set(it.exclude_ids)
                olds = [r["id"] for r in found if r["id"] not in skip]
                n = self._retire(
                    tx, e.id, olds, now, "invalidate", f"{p.old} replaced by {p.new} ({p.summary})"
                )
                self.by_pattern[p.identity()] = n
        learned = sum(1 for _ in made)
        rows = tx.run(
            "learners/cursor_advance",
            id=self.cid,
            scope_id=self.scope_id,
            source=self.source,
            position=self.target,
            open=self.keep_open,
            learned=learned,
            now=now,
        )
        self.position = native(rows[0]["cursor"].get("position")) if rows else None

    def _retire(
        self, tx: Tx, new_id: str, olds: Sequence[str], now: datetime, kind: str, reason: str
    ) -> int:
        olds = [o for o in dict.fromkeys(olds) if o != new_id]
        if not olds:
            return 0
        changesets.supersede(tx.run, self.scope_id, new_id, olds, now, kind=kind, reason=reason)
        self.superseded += len(olds)
        return len(olds)


def _time_key(t: datetime | None) -> tuple[bool, datetime]:
    t = aware_time(t)
    return (t is not None, t or datetime.min.replace(tzinfo=None))
