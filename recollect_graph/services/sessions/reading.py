"""Reading sessions (list, one session, its turns, forks, fork parents) and their handoffs.

Mixed into :class:`~recollect_graph.services.sessions.service.Sessions`, which writes them.
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Sequence
from typing import Any

from recollect_graph.db.client import Db
from recollect_graph.errors import SessionNotFound
from recollect_graph.results import ForkParent
from recollect_graph.services.kernel.times import native_row, now_utc
from recollect_graph.services.kernel.validation import (
    MAX_OFFSET,
    in_range,
    optional_text,
    require_text,
)
from recollect_graph.services.sessions.index import resolve_chain


class SessionReads:
    """The reading side of the session service (``db`` set by the subclass)."""

    db: Db

    # -- reading -------------------------------------------------------------------------------
    def list(
        self,
        scope_id: str,
        *,
        forks_only: bool = False,
        cwd: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[dict[str, Any]]:
        """The sessions of a scope, newest first (a page: ``offset`` skipped, then ``limit``)."""
        scope_id = require_text(scope_id, "scope_id")
        return [
            native_row(r["session"])
            for r in self.db.read(
                "sessions/list",
                scope_id=scope_id,
                forks_only=forks_only,
                cwd=cwd,
                skip=int(in_range(offset, "offset", 0, MAX_OFFSET)),
                limit=max(1, min(int(limit), 10_000)),
            )
        ]

    def get(self, session_id: str, *, scope_id: str) -> dict[str, Any]:
        """One session with its forks, continuations, identifiers and markers.

        Raises:
            SessionNotFound: No such session in the scope.
        """
        rows = self.db.read("sessions/get", session_id=session_id, scope_id=scope_id)
        if not rows:
            raise SessionNotFound(session_id, scope_id=scope_id)
        r = rows[0]
        out = native_row(r["session"])
        if out.get("handoff_json"):
            out["handoff"] = json.loads(out.pop("handoff_json"))
        out.update(
            forks=r["forks"],
            continues=r["continues"],
            continued_by=r["continued_by"],
            identifiers=r["identifiers"],
            markers=r["markers"],
            entries=r["entries"],
        )
        return out

    def turns(self, session_id: str, *, scope_id: str) -> builtins.list[dict[str, Any]]:
        """A session's turns in order (id, role, speaker, text, at)."""
        rows = self.db.read("sessions/turn_texts", session_id=session_id, scope_id=scope_id)
        if not rows:
            raise SessionNotFound(session_id, scope_id=scope_id)
        return [native_row(t) for t in rows[0]["turns"]]

    def forks(
        self, scope_id: str, *, limit: int = 50, offset: int = 0
    ) -> builtins.list[dict[str, Any]]:
        """The forks of a scope with their resolved parents, newest first (a page)."""
        out = []
        for s in self.list(scope_id, forks_only=True, limit=limit, offset=offset):
            out.append({**s, "parent": self.fork_parent(s["id"], scope_id=scope_id).model_dump()})
        return out

    def fork_parent(self, session_id: str, *, scope_id: str) -> ForkParent:
        """Fork-parent backtracking: the resumable top-level ancestor of a fork.

        Returns:
            ``session_id``, ``fork_marker``, ``chain`` (ancestor ids, nearest first),
            ``parent_pointer`` and ``parent_cwd`` (of the resumable ancestor; ``parent_cwd`` is
            None when unknown), ``resumable`` and ``resume`` (the command, or None), and
            ``missing_parent`` (the pointer whose record is gone, if any).

        Raises:
            SessionNotFound: No such session in the scope.
        """
        rows = self.db.read("sessions/fork_chain", session_id=session_id, scope_id=scope_id)
        if not rows:
            raise SessionNotFound(session_id, scope_id=scope_id)
        return resolve_chain([native_row(n) for n in rows[0]["chain"]])

    # -- handoffs ------------------------------------------------------------------------------
    def handoff(
        self,
        session_id: str,
        *,
        scope_id: str,
        what: str,
        next: str | None = None,
        artifacts: Sequence[str] = (),
        blockers: Sequence[str] = (),
    ) -> dict[str, Any]:
        """Record what a session did and what comes next, for whoever resumes it."""
        what = require_text(what, "what", max_len=10_000)
        nxt = optional_text(next, "next", max_len=10_000)
        arts = [require_text(a, "artifact", max_len=1000) for a in artifacts]
        blks = [require_text(b, "blocker", max_len=2000) for b in blockers]
        data = {"what": what, "next": nxt, "artifacts": arts, "blockers": blks}
        text = " ".join(
            [
                what,
                f"Next: {nxt}" if nxt else "",
                *(f"Artifact: {a}" for a in arts),
                *(f"Blocker: {b}" for b in blks),
            ]
        ).strip()
        rows = self.db.write(
            "sessions/set_handoff",
            session_id=session_id,
            scope_id=scope_id,
            handoff=text,
            handoff_json=json.dumps(data),
            now=now_utc(),
        )
        if not rows:
            raise SessionNotFound(session_id, scope_id=scope_id)
        return {"session_id": session_id, **data}

    def get_handoff(self, session_id: str, *, scope_id: str) -> dict[str, Any] | None:
        """The session's handoff, or None when it has none."""
        s = self.get(session_id, scope_id=scope_id)
        h = s.get("handoff")
        return {"session_id": session_id, **h} if isinstance(h, dict) else None
