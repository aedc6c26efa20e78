"""The learn runner: fetch -> extract -> remember in batches, with a cursor that never lies.

For each learner: read its ``LearnerCursor`` (one per scope and source, id
``learner:<source>:<scope>``, plus ``:<stream>`` when the learner reads one particular
repository or folder), fetch the events since the cursor, extract each, ask the learner for
patterns and summaries, plan the writes (:mod:`.plan`) and store them with
``Knowledge.remember_many``, one transaction per batch. Inside each batch's transaction the
runner also retires older revisions and reverted items, applies migrations (the deprecation
entry supersedes the scope's entries that mention the replaced tool) and advances the cursor,
so a crash leaves either the whole batch and its cursor step, or neither.

A run marks its cursor open with the ``since`` it started from. A run that finds its cursor open
(the last one was interrupted) starts from that same point, plans the same writes, leaves out
the entries already committed and finishes the rest: the graph ends as an uninterrupted run
would have left it. Re-running a finished run fetches only newer events; anything fetched again
is skipped as already learned.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from recollect_graph.errors import InvalidInput, RecollectError
from recollect_graph.learners import plan as planning
from recollect_graph.learners.base import (
    Event,
    Extract,
    Learner,
    LearnerError,
    Pattern,
    Skip,
    aware_time,
    parse_since,
)
from recollect_graph.learners.registry import check_learner, create
from recollect_graph.learners.result import LearnResult
from recollect_graph.learners.writer import LearnProgress, PlanWriter
from recollect_graph.services.kernel.times import native
from recollect_graph.services.kernel.validation import require_text
from recollect_graph.services.knowledge.entries import Knowledge

log = logging.getLogger(__name__)

Sources = Sequence["str | Learner"] | Mapping[str, Mapping[str, Any]]
#: Most items a dry run lists (the counts are always complete).
PREVIEW_LIMIT = 500
_ID_CHUNK = 5000
#: Most prior entries handed to a learner's ``use_state``.
STATE_LIMIT = 200_000


def cursor_id(learner: Learner, scope_id: str) -> str:
    """``learner:<source>:<scope>``, plus ``:<stream>`` when the learner names its stream."""
    base = f"learner:{learner.source()}:{scope_id}"
    stream_fn = getattr(learner, "stream", None)
    stream = stream_fn() if callable(stream_fn) else None
    return f"{base}:{stream}" if stream else base


__all__ = ["LearnProgress", "LearnResult", "LearnerRunner", "cursor_id"]


class LearnerRunner:
    """Runs learners into one knowledge service.

    Args:
        knowledge: Where entries go.
        batch_size: Entries per transaction (and per embedding batch).
    """

    def __init__(self, knowledge: Knowledge, *, batch_size: int = 128) -> None:
        self.knowledge = knowledge
        self.db = knowledge.db
        self.batch_size = batch_size

    # -- public -----------------------------------------------------------------------------
    def learn(
        self,
        scope_id: str,
        owner_id: str,
        sources: Sources,
        since: datetime | str | None = None,
        dry_run: bool = False,
        progress: LearnProgress | None = None,
        *,
        batch_size: int | None = None,
    ) -> dict[str, LearnResult]:
        """Learn from each source into ``scope_id``.

        Args:
            scope_id: Scope of every entry.
            owner_id: Owner of every entry.
            sources: Names (``"git"``), learner objects, or ``{name: options}``
                (``{"git": {"repo": "."}}``).
            since: Learn from this time (a datetime, ISO text or "7 days ago") instead of the
                cursor; entries already learned are still not stored twice.
            dry_run: Plan everything, write nothing; results carry a ``preview``.
            progress: ``progress(source, done, total)`` as batches commit.
            batch_size: Entries per transaction (default: the runner's).

        Returns:
            ``{source: LearnResult}`` in the order given.

        Raises:
            InvalidInput: Bad scope, owner, ``since`` or batch size (nothing is written).
            LearnerError: A learner refused its options (nothing is written).
        """
        scope_id = require_text(scope_id, "scope_id", max_len=200)
        owner_id = require_text(owner_id, "owner_id", max_len=200)
        start = parse_since(since)
        size = self.batch_size if batch_size is None else batch_size
        if not isinstance(size, int) or size < 1:
            raise InvalidInput("batch_size must be a positive integer")
        learners = self._learners(sources)
        out: dict[str, LearnResult] = {}
        for learner in learners:
            name = learner.source()
            key, n = name, 2
            while key in out:
                key, n = f"{name}#{n}", n + 1
            out[key] = self._learn_one(learner, scope_id, owner_id, start, dry_run, progress, size)
        return out

    def cursors(self, scope_id: str) -> list[dict[str, Any]]:
        """Every learner cursor of a scope (position, open run, totals)."""
        rows = self.db.read("learners/cursors", scope_id=require_text(scope_id, "scope_id"))
        return [{k: native(v) for k, v in r["cursor"].items()} for r in rows]

    # -- one learner ------------------------------------------------------------------------
    def _learners(self, sources: Sources) -> list[Learner]:
        if isinstance(sources, str):
            sources = [sources]
        if isinstance(sources, Mapping):
            made = [create(str(n), **dict(opts or {})) for n, opts in sources.items()]
        else:
            made = [create(s) if isinstance(s, str) else check_learner(s) for s in sources]
        if not made:
            raise InvalidInput("no sources to learn from")
        return made

    def _learn_one(
        self,
        learner: Learner,
        scope_id: str,
        owner_id: str,
        since: datetime | None,
        dry_run: bool,
        progress: LearnProgress | None,
        size: int,
    ) -> LearnResult:
        t0 = time.monotonic()
        name = learner.source()
        cid = cursor_id(learner, scope_id)
        rows = self.db.read("learners/cursor_get", id=cid, scope_id=scope_id)
        cur = {k: native(v) for k, v in rows[0]["cursor"].items()} if rows else {}
        after: datetime | None = None
        start: datetime | None
        res = LearnResult(source=name, dry_run=dry_run, position=cur.get("position"))
        if since is not None:
            start = since
        elif cur.get("run_open"):
            start, res.resumed = cur.get("run_since"), True
        else:
            start = after = cur.get("position")
        res.since = start
        try:
            self._prime(learner, name, scope_id, start)
            events = self._fetch(learner, start, scope_id, after)
        except Exception as e:  # the source is unreadable: report it, other sources go on
            res.failed = True
            res.errors.append({"stage": "fetch", "error": _err(e)})
            res.seconds = round(time.monotonic() - t0, 3)
            return res
        res.fetched = len(events)
        extracts = self._extract(learner, events, res)
        patterns = self._optional(learner, "detect_patterns", res, events)
        summaries = self._optional(learner, "summarize", res, events, scope_id)
        items, dupes = planning.build(name, scope_id, events, extracts, patterns, summaries)
        if dupes:
            res.skipped["duplicate source id in this run"] += dupes
        res.summaries = sum(1 for it in items if it.kind == "summary")
        res.patterns = [_pattern_info(p) for p in patterns]
        known = self._known([it.entry_id for it in items], scope_id)
        for it in items:
            if it.entry_id in known and it.kind == "event":
                res.skipped["already learned"] += 1
        new = [it for it in items if it.entry_id not in known]
        last_at = max((e.at for e in events if e.at is not None), default=None)
        if dry_run:
            res.would_learn = len(new)
            res.preview = [it.preview() for it in new[:PREVIEW_LIMIT]]
        else:
            PlanWriter(self.knowledge).write(
                name, cid, scope_id, owner_id, start, items, known, last_at, res, progress, size
            )
        res.seconds = round(time.monotonic() - t0, 3)
        return res

    def _prime(self, learner: Learner, name: str, scope_id: str, since: datetime | None) -> None:
        """Give a learner that follows items across runs what it stored up to ``since``."""
        use_state = getattr(learner, "use_state", None)
        if not callable(use_state):
            return
        rows: list[dict[str, Any]] = []
        if since is not None:
            prefix = f"{name}:"
            rows = [
                {
                    **r,
                    "source_id": r["source_id"][len(prefix) :],
                    "valid_from": native(r["valid_from"]),
                }
                for r in self.db.read(
                    "learners/state",
                    scope_id=scope_id,
                    prefix=prefix,
                    as_of=since,
                    limit=STATE_LIMIT,
                )
            ]
        use_state(rows)

    def _fetch(
        self, learner: Learner, since: datetime | None, scope_id: str, after: datetime | None
    ) -> list[Event]:
        raw = learner.fetch_since(since, scope_id)
        events: list[Event] = []
        for ev in raw:
            if not isinstance(ev, Event):
                raise LearnerError(
                    f"learner {learner.source()!r}: fetch_since must return Event objects "
                    f"(got {type(ev).__name__})"
                )
            at = aware_time(ev.at)
            if at is not None and after is not None and at <= after:
                continue  # learned by the finished run that set the cursor
            events.append(ev if at is ev.at else Event(ev.key, at, ev.data))
        # Events without a time first (they do not move the cursor), then oldest first.
        return sorted(events, key=lambda e: (e.at is not None, e.at or datetime.min))

    def _extract(
        self, learner: Learner, events: Sequence[Event], res: LearnResult
    ) -> dict[str, Extract]:
        out: dict[str, Extract] = {}
        for ev in events:
            try:
                r = learner.extract(ev)
            except Exception as e:  # one bad event is counted, the run goes on
                res.errors.append({"event": ev.key, "error": _err(e)})
                continue
            if isinstance(r, Skip):
                res.skipped[r.reason] += 1
            elif isinstance(r, Extract):
                out.setdefault(ev.key, r)
            else:
                res.errors.append(
                    {"event": ev.key, "error": f"extract returned {type(r).__name__}"}
                )
        return out

    def _optional(self, learner: Learner, method: str, res: LearnResult, *args: Any) -> list[Any]:
        fn = getattr(learner, method, None)
        if not callable(fn):
            return []
        want = Pattern if method == "detect_patterns" else Extract
        try:
            found = list(fn(*args) or [])
        except Exception as e:
            res.errors.append({"stage": method, "error": _err(e)})
            return []
        good = [x for x in found if isinstance(x, want)]
        if len(good) != len(found):
            res.errors.append(
                {
                    "stage": method,
                    "error": f"{len(found) - len(good)} results were not {want.__name__}",
                }
            )
        return good

    def _known(self, ids: Sequence[str], scope_id: str) -> set[str]:
        known: set[str] = set()
        for i in range(0, len(ids), _ID_CHUNK):
            rows = self.db.read(
                "learners/existing", scope_id=scope_id, ids=list(ids[i : i + _ID_CHUNK])
            )
            known |= {r["id"] for r in rows}
        return known


def _pattern_info(p: Pattern) -> dict[str, Any]:
    return {
        "type": p.type,
        "key": p.identity(),
        "summary": p.summary,
        "old": p.old,
        "new": p.new,
        "events": [e.key for e in p.events][:50],
    }


def _err(e: BaseException) -> str:
    return str(e) if isinstance(e, RecollectError) else f"{type(e).__name__}: {e}"
