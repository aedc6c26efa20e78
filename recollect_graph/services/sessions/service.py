"""Sessions in the graph: conversations as ordered turns, forks, handoffs and the recall index.

A ``Session`` holds ``Turn`` entries (``HAS_TURN``, ``NEXT`` in order). Each turn is an ``Entry``
(``entry_type = conversation_turn``, ``source_id`` = the turn id, ``valid_from`` = its time), so
``rg.search`` finds turns and its graph signal reaches the turns around a hit. A fork (sub-agent or
sidechain session) has ``fork_marker = true`` and ``FORKED_FROM`` its parent when the parent is
stored; otherwise it keeps only ``parent_pointer``.

The recall index of a session (what :mod:`recollect_graph.services.sessions.recall` scans) is
derived from its turns by :meth:`Sessions.index`: keywords, topics, key utterances, decisions,
an extractive summary, a session vector, ``CITES`` edges to ``Identifier`` nodes and
``HAS_MARKER`` edges to ``Marker`` nodes (salience markers and coinage terms). It is recomputed
whenever turns are added.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from recollect_graph.db.client import Db
from recollect_graph.errors import InvalidInput, SessionNotFound
from recollect_graph.ids import recall_node_id as node_id
from recollect_graph.ids import turn_entry_id
from recollect_graph.nlp.embedder import Embedder
from recollect_graph.redaction import redact as redact_text
from recollect_graph.redaction import redact_value
from recollect_graph.services.kernel.hashing import content_hash
from recollect_graph.services.kernel.times import aware, now_utc
from recollect_graph.services.kernel.validation import (
    MAX_ID_CHARS,
    MAX_SCOPE_CHARS,
    MAX_SPEAKER_CHARS,
    MAX_TITLE_CHARS,
    MAX_TURN_CHARS,
    optional_text,
    require_text,
)
from recollect_graph.services.sessions import transcripts
from recollect_graph.services.sessions.index import (
    derive_index,
    mean_vector,
    turn_contexts,
    turn_embed_text,
)
from recollect_graph.services.sessions.reading import SessionReads

TURN_BATCH = 128


@dataclass
class TurnsAdded:
    """What :meth:`Sessions.add_turns` did."""

    session_id: str
    added: int
    existing: int
    turn_ids: list[str] = field(default_factory=list)


_ASSISTANTS = frozenset({"assistant", "agent", "claude", "ai", "bot", "model"})


def _role(turn: Mapping[str, Any], i: int) -> tuple[str, str]:
    """The turn's speaker name and its role (user, assistant or system)."""
    speaker = turn.get("speaker") or turn.get("role")
    if not isinstance(speaker, str) or not speaker.strip():
        raise InvalidInput(f"turn {i}: speaker (or role) must be a non-empty string")
    speaker = require_text(speaker, f"turn {i}: speaker", max_len=MAX_SPEAKER_CHARS)
    role = str(turn.get("role") or "").lower()
    if role not in ("user", "assistant", "system"):
        role = "assistant" if speaker.lower() in _ASSISTANTS else "user"
    return speaker, role


class Sessions(SessionReads):
    """Conversations, forks and handoffs (``rg.sessions``).

    Args:
        db: The database client.
        embedder: Embeds turns and session summaries.
        context_vectors: Also embed each turn with the turn before it (its
            ``context_embedding``, what search's ``search_turn_context`` weighs).
    """

    def __init__(self, db: Db, embedder: Embedder, *, context_vectors: bool = True) -> None:
        self.db = db
        self.embedder = embedder
        self.context_vectors = context_vectors

    # -- turns ---------------------------------------------------------------------------------
    def add_turns(
        self,
        session_id: str,
        turns: Sequence[Mapping[str, Any]],
        *,
        scope_id: str,
        owner_id: str,
        cwd: str | None = None,
        title: str | None = None,
        origin: str | None = None,
        parent_session_id: str | None = None,
        index: bool = True,
        redact: bool = True,
        progress: Callable[[int, int], None] | None = None,
        _extra: Mapping[str, Any] | None = None,
    ) -> TurnsAdded:
        """Create or extend a session with turns, each stored as a searchable entry.

        Idempotent per turn id: turns the session already has are skipped before any embedding
        work, so re-sending a whole growing conversation only adds its new turns. New turns are
        appended after the existing ones in the order given. Secrets in the turns' text, the
        title and the artifacts are replaced by ``[REDACTED:<kind>]`` markers before anything is
        stored (:mod:`recollect_graph.redaction`).

        Args:
            session_id: The session's id (stable across calls).
            turns: Dicts ``{id, speaker (or role), text, at}``; ``at`` is a datetime or ISO
                string (optional).
            scope_id: Scope of the session and its turns.
            owner_id: Owner of the turns.
            cwd: Working directory the conversation happened in.
            title: A title for the session.
            origin: Where it came from (e.g. Claude Code's ``entrypoint``).
            parent_session_id: Makes this session a fork of that one.
            index: Recompute the session's recall index afterwards (default).
            redact: Redact secrets (default); False stores the text verbatim.
            progress: ``progress(done, total)`` after each committed batch.

        Returns:
            How many turns were added and which entry ids the turns have, in input order.

        Raises:
            InvalidInput: A malformed turn (nothing is written).
        """
        session_id = require_text(session_id, "session_id", max_len=MAX_ID_CHARS)
        scope_id = require_text(scope_id, "scope_id", max_len=MAX_SCOPE_CHARS)
        owner_id = require_text(owner_id, "owner_id", max_len=MAX_SCOPE_CHARS)
        if isinstance(turns, (str, bytes)) or not isinstance(turns, Sequence):
            raise InvalidInput("turns must be a list of {id, speaker, text, at} maps")
        prepared: list[dict[str, Any]] = []
        seen: set[str] = set()
        for i, t in enumerate(turns):
            if not isinstance(t, Mapping):
                raise InvalidInput(f"turn {i}: must be a map with id, speaker, text, at")
            tid = t.get("id")
            if isinstance(tid, int) and not isinstance(tid, bool):
                tid = str(tid)
            tid = require_text(tid, f"turn {i}: id", max_len=MAX_ID_CHARS)
            text = require_text(t.get("text"), f"turn {i}: text", max_len=MAX_TURN_CHARS)
            if redact:
                text = redact_text(text)
            speaker, role = _role(t, i)
            at = aware(t.get("at"), f"turn {i}: at")
            if tid in seen:
                continue
            seen.add(tid)
            prepared.append({"tid": tid, "text": text, "speaker": speaker, "role": role, "at": at})
        title = optional_text(title, "title", max_len=MAX_TITLE_CHARS)
        if redact and title:
            title = redact_text(title)
        session = {
            "id": session_id,
            "scope_id": scope_id,
            "owner_id": owner_id,
            "cwd": optional_text(cwd, "cwd", max_len=1000),
            "title": title,
            "origin": optional_text(origin, "origin", max_len=100),
            "git_branch": None,
            "fork_marker": bool(parent_session_id),
            "parent_pointer": optional_text(
                parent_session_id, "parent_session_id", max_len=MAX_ID_CHARS
            ),
            "transcript_path": None,
            "source_size": None,
            "artifacts": None,
        }
        session.update(_extra or {})
        if redact:
            session["artifacts"] = redact_value(session["artifacts"])
        state = self.db.read(
            "sessions/turn_state",
            session_id=session_id,
            scope_id=scope_id,
            turn_ids=[p["tid"] for p in prepared],
        )[0]
        existing = set(state["existing"] or [])
        new = [p for p in prepared if p["tid"] not in existing]
        # the last turn and the next seq are read inside each write transaction, after it has
        # locked the session, so concurrent add_turns to one session keep one chain
        now = now_utc()
        ids = [turn_entry_id(scope_id, session_id, p["tid"]) for p in prepared]
        done = 0
        if not new:  # nothing to add, but the session's own fields may be new
            self._write(session, [], now)
        before = (
            turn_contexts(prepared, state, scope_id, session_id) if self.context_vectors else {}
        )
        for start in range(0, len(new), TURN_BATCH):
            batch = new[start : start + TURN_BATCH]
            texts = [turn_embed_text(p["speaker"], p["role"], p["text"]) for p in batch]
            contexts = [before.get(p["tid"]) for p in batch]
            # one batch: the turns' own texts, then the context texts of those that have one
            vectors = self.embedder.embed(texts + [c[0] for c in contexts if c is not None])
            own, more = vectors[: len(texts)], iter(vectors[len(texts) :])
            rows = []
            for p, vec, ctx in zip(batch, own, contexts, strict=True):
                props = {
                    "id": turn_entry_id(scope_id, session_id, p["tid"]),
                    "scope_id": scope_id,
                    "owner_id": owner_id,
                    "content": p["text"],
                    "content_hash": content_hash(p["text"]),
                    "entry_type": "conversation_turn",
                    "description": _describe(p["speaker"], p["at"]),
                    "source": "user" if p["role"] == "user" else "agent",
                    "source_type": "observed",
                    "source_id": p["tid"],
                    "session_id": session_id,
                    "speaker": p["speaker"],
                    "speaker_role": p["role"],
                    "tags": [],
                    "metadata": json.dumps({"speaker": p["speaker"], "session_id": session_id}),
                    "context_hints": "{}",
                    "confidence": 1.0,
                    "half_life_days": 30.0,
                    "pinned": False,
                    "emotional_valence": "neutral",
                    "score": 5.0,
                    "schema_fit": 0.5,
                    "embedding": vec,
                    "embedding_model": self.embedder.model_id,
                    "context_embedding": next(more) if ctx is not None else None,
                    "context_of": ctx[1] if ctx is not None else None,
                    "valid_from": p["at"],
                    "created_at": now,
                }
                rows.append(
                    {"id": props["id"], "props": {k: v for k, v in props.items() if v is not None}}
                )
            self._write(session, rows, now)
            done += len(batch)
            if progress:
                progress(done, len(new))
        if index:
            self.index(session_id, scope_id=scope_id)
            if session["fork_marker"] or not new:
                self.db.write("sessions/link_forks", scope_id=scope_id)
        return TurnsAdded(
            session_id=session_id, added=len(new), existing=len(prepared) - len(new), turn_ids=ids
        )

    def _write(self, session: Mapping[str, Any], rows: list[dict[str, Any]], now: datetime) -> None:
        self.db.write("sessions/add_turns", session=dict(session), rows=rows, now=now)

    # -- the recall index ----------------------------------------------------------------------
    def index(self, session_id: str, *, scope_id: str) -> dict[str, Any]:
        """Recompute a session's recall index from its turns (one transaction).

        Returns:
            The derived fields (keywords, topics, summary, identifier and marker counts).

        Raises:
            SessionNotFound: No such session in the scope.
        """
        rows = self.db.read("sessions/turn_texts", session_id=session_id, scope_id=scope_id)
        if not rows:
            raise SessionNotFound(session_id, scope_id=scope_id)
        session, turns = rows[0]["session"], rows[0]["turns"]
        derived = derive_index(session, turns)
        # The session vector: its head (title, request, keywords) and summary, embedded here,
        # averaged with the vectors its first user turns already have.
        parts = [p for p in (derived["head"], derived["summary"]) if p] or [session_id]
        vecs = self.embedder.embed(parts) + [list(v) for v in rows[0]["user_vectors"] if v]
        props = {
            k: derived[k] for k in ("keywords", "topics", "key_utterances", "decisions", "summary")
        }
        props.update(
            embedding=mean_vector(vecs),
            embedding_model=self.embedder.model_id,
            indexed_at=now_utc(),
            index_hash=derived["hash"],
        )
        idents = [
            {
                "id": node_id("identifier", scope_id, ns, value),
                "namespace": ns,
                "value": value,
                "name": value.rsplit("/", 1)[-1] if ns == "fs_path" else None,
                "count": n,
            }
            for (ns, value), n in derived["identifiers"].items()
        ]
        turn_cites = [
            {"entry_id": eid, "id": node_id("identifier", scope_id, ns, value), "count": n}
            for eid, counts in derived["turn_identifiers"].items()
            for (ns, value), n in counts.items()
        ]
        marks = [
            {
                "id": node_id("marker", scope_id, kind, value),
                "kind": kind,
                "value": value,
                "count": n,
            }
            for (kind, value), n in derived["markers"].items()
        ]
        self.db.write(
            "sessions/write_index",
            session_id=session_id,
            scope_id=scope_id,
            props=props,
            identifiers=idents,
            turn_cites=turn_cites,
            markers=marks,
            continues=[v for (ns, v) in derived["identifiers"] if ns == "session"],
        )
        return {
            "session_id": session_id,
            "keywords": derived["keywords"],
            "topics": derived["topics"],
            "summary": derived["summary"],
            "identifiers": len(idents),
            "markers": len(marks),
        }

    def ingest_transcripts(
        self,
        root: str | Path,
        *,
        scope_id: str,
        owner_id: str,
        progress: Callable[[int, int, str], None] | None = None,
        knowledge: Any = None,
    ) -> transcripts.IngestReport:
        """Read coding-agent transcripts under ``root`` and store their sessions (idempotent).

        See :func:`recollect_graph.services.sessions.transcripts.ingest` for the layout read.

        Args:
            root: A Claude Code config dir, its ``projects`` dir, or one project folder.
            scope_id: Scope the sessions go to.
            owner_id: Owner of their turns.
            progress: ``progress(done, total, session_id)`` after each session.
            knowledge: When given (``rg.knowledge``), each ingested session's decisions are
                also stored as ``decision`` entries linked ``FROM_SESSION``.
        """
        return transcripts.ingest(
            self,
            Path(root),
            scope_id=scope_id,
            owner_id=owner_id,
            progress=progress,
            knowledge=knowledge,
        )

    def learn_decisions(
        self, session_id: str, *, scope_id: str, owner_id: str, knowledge: Any
    ) -> list[str]:
        """Store the decisions a session's index found as ``decision`` entries ``FROM_SESSION``.

        Idempotent: each decision's ``source_id`` is ``session:<id>:decision:<n>``.

        Args:
            session_id: The session.
            scope_id: Its scope (and the entries').
            owner_id: Owner of the entries.
            knowledge: The :class:`~recollect_graph.services.knowledge.entries.Knowledge` service.

        Returns:
            The entry ids.
        """
        s = self.get(session_id, scope_id=scope_id)
        items = [
            {
                "content": d,
                "entry_type": "decision",
                "source": "agent",
                "source_type": "inferred",
                "source_id": f"session:{session_id}:decision:{i}",
                "tags": ["decision", "from-session"],
                "metadata": {"session_id": session_id, "cwd": s.get("cwd")},
                "valid_from": s.get("started_at"),
                "context_hints": {"cwd": s.get("cwd")} if s.get("cwd") else {},
            }
            for i, d in enumerate(s.get("decisions") or [])
        ]
        if not items:
            return []
        ids = [e.id for e in knowledge.remember_many(items, scope_id=scope_id, owner_id=owner_id)]
        self.db.write(
            "sessions/link_entries", scope_id=scope_id, session_id=session_id, entry_ids=ids
        )
        return ids

    def index_stale(self, scope_id: str, *, limit: int = 10_000) -> int:
        """Index every session of a scope whose index is missing or stale; returns how many."""
        ids = [r["id"] for r in self.db.read("sessions/stale", scope_id=scope_id, limit=limit)]
        for sid in ids:
            self.index(sid, scope_id=scope_id)
        self.db.write("sessions/link_forks", scope_id=scope_id)
        return len(ids)


def _describe(speaker: str, at: datetime | None) -> str:
    return f"{speaker}, {at:%d %B %Y}" if at else speaker
