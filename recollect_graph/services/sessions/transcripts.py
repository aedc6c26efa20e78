"""Read coding-agent transcripts: Claude Code project folders and hypomnesis captures.

Layout (``{config}/projects/{slug}/...``, ``slug`` = the project's cwd with ``/`` as ``-``):

* ``{slug}/{session-id}.jsonl``: one top-level session per file; the id is the file name.
* ``{slug}/{session-id}/subagents/agent-{agent-id}.jsonl``: a sub-agent (fork) transcript whose
  records carry the parent's ``sessionId`` and ``isSidechain: true``.
* ``{slug}/hypomnesis/subagent/{agent-id}.jsonl``: substitute captures, one line per sub-agent
  stop: ``{timestamp, session_id, agent_id, agent_transcript_path, last_assistant_message}``.

A fork's parent is read from its own record (the capture's ``session_id`` or the sub-agent
transcript's ``sessionId``), never inferred. The parent's cwd comes from the parent's transcript
when that still exists in the same project; otherwise the fork keeps its ``parent_pointer`` with no
cwd and is not resumable. Lines that are not JSON objects with a usable record are counted as
malformed and skipped. Parsing is pure (no database): :func:`scan` returns what to store.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from recollect_graph.errors import InvalidInput

_TOOL_FIELDS = ("file_path", "path", "url", "command", "pattern", "notebook_path")


@dataclass
class ParsedTurn:
    """One user or assistant text turn."""

    id: str
    role: str
    text: str
    at: datetime | None


@dataclass
class ParsedSession:
    """What one transcript (or one agent's captures) says about a session."""

    id: str
    slug: str
    path: str
    kind: str  # "top", "subagent" or "capture"
    cwd: str | None = None
    entrypoint: str | None = None
    git_branch: str | None = None
    fork_marker: bool = False
    parent_pointer: str | None = None
    turns: list[ParsedTurn] = field(default_factory=list)
    artifacts: list[str] = field(default_factory=list)
    summaries: list[str] = field(default_factory=list)
    malformed: int = 0
    blank: int = 0
    size: int = 0


@dataclass
class ScanResult:
    """Every session found under a folder, parents before their forks."""

    root: str
    sessions: list[ParsedSession]
    files: int = 0
    malformed_lines: int = 0

    def by_id(self) -> dict[str, ParsedSession]:
        """Sessions keyed by id."""
        return {s.id: s for s in self.sessions}


def _parse_time(value: Any) -> datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def _records(path: Path, into: ParsedSession) -> Iterator[dict[str, Any]]:
    """JSON object lines of a file; anything else is counted and skipped."""
    raw = path.read_bytes()
    into.size = len(raw)
    for line in raw.decode("utf-8", errors="replace").splitlines():
        if not line.strip():
            into.blank += 1
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            into.malformed += 1
            continue
        if not isinstance(rec, dict):
            into.malformed += 1
            continue
        yield rec


def _text_of(content: Any) -> tuple[str, list[str]]:
    """The text of a message's content and the artifacts its tool calls name."""
    if isinstance(content, str):
        return content.strip(), []
    texts: list[str] = []
    artifacts: list[str] = []
    if isinstance(content, list):
        for block in content:
            if not isinstance(block, Mapping):
                continue
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                if block["text"].strip():
                    texts.append(block["text"].strip())
            elif block.get("type") == "tool_use" and isinstance(block.get("input"), Mapping):
                for key in _TOOL_FIELDS:
                    v = block["input"].get(key)
                    if isinstance(v, str) and v.strip():
                        artifacts.append(v.strip()[:500])
    return "\n".join(texts), artifacts


def _is_turn_record(rec: Mapping[str, Any]) -> bool:
    return rec.get("type") in ("user", "assistant") and not rec.get("isMeta")


def parse_transcript(path: Path, *, slug: str, kind: str, session_id: str) -> ParsedSession:
    """Parse one Claude Code JSONL transcript.

    Turns are user records with text (not tool results, not meta records) and assistant records
    with at least one text block. A record without a ``message`` object is malformed.
    """
    s = ParsedSession(id=session_id, slug=slug, path=str(path), kind=kind)
    parent_ids: list[str] = []
    for rec in _records(path, s):
        rtype = rec.get("type")
        if rtype == "summary":
            if isinstance(rec.get("summary"), str):
                s.summaries.append(rec["summary"])
            continue
        if rtype not in ("user", "assistant", "system"):
            continue
        msg = rec.get("message")
        if rtype in ("user", "assistant") and not isinstance(msg, Mapping):
            s.malformed += 1
            continue
        s.cwd = s.cwd or (rec.get("cwd") if isinstance(rec.get("cwd"), str) else None)
        s.entrypoint = s.entrypoint or rec.get("entrypoint")
        s.git_branch = s.git_branch or rec.get("gitBranch")
        if isinstance(rec.get("sessionId"), str):
            parent_ids.append(rec["sessionId"])
        if kind == "subagent" and isinstance(rec.get("agentId"), str):
            s.id = rec["agentId"]
        if not _is_turn_record(rec) or not isinstance(msg, Mapping):
            continue
        text, artifacts = _text_of(msg.get("content"))
        s.artifacts.extend(artifacts)
        if not text or text.startswith(("<command-", "<local-command")):
            continue
        tid = rec.get("uuid") if isinstance(rec.get("uuid"), str) else None
        s.turns.append(
            ParsedTurn(
                id=tid or f"{s.id}:{len(s.turns)}",
                role=str(rtype),
                text=text,
                at=_parse_time(rec.get("timestamp")),
            )
        )
    if kind == "subagent":
        s.fork_marker = True
        s.parent_pointer = next((p for p in parent_ids if p != s.id), None)
    elif parent_ids and all(p != session_id for p in parent_ids) and s.turns:
        # An old-style sidechain file at the top level: its records name another session.
        s.fork_marker = True
        s.parent_pointer = parent_ids[0]
    return s


def parse_captures(path: Path, *, slug: str) -> list[ParsedSession]:
    """Parse a hypomnesis substitute-capture file: one fork per ``agent_id``."""
    holder = ParsedSession(id="", slug=slug, path=str(path), kind="capture")
    forks: dict[str, ParsedSession] = {}
    for rec in _records(path, holder):
        agent, parent = rec.get("agent_id"), rec.get("session_id")
        if not isinstance(agent, str) or not agent:
            holder.malformed += 1
            continue
        f = forks.setdefault(
            agent,
            ParsedSession(id=agent, slug=slug, path=str(path), kind="capture", fork_marker=True),
        )
        if isinstance(parent, str) and parent and not f.parent_pointer:
            f.parent_pointer = parent
        text = rec.get("last_assistant_message")
        if isinstance(text, str) and text.strip():
            at = _parse_time(rec.get("timestamp"))
            f.turns.append(
                ParsedTurn(
                    id=f"capture:{agent}:{rec.get('timestamp') or len(f.turns)}",
                    role="assistant",
                    text=text.strip(),
                    at=at,
                )
            )
    out = list(forks.values())
    if out:
        out[0].malformed += holder.malformed
        out[0].blank += holder.blank
        out[0].size = holder.size
    return out


def _slug_dirs(root: Path) -> list[Path]:
    if not root.exists():
        raise InvalidInput(f"{root} does not exist")
    if not root.is_dir():
        raise InvalidInput(f"{root} is not a folder")
    if (root / "projects").is_dir():
        root = root / "projects"
    if any(root.glob("*.jsonl")) or (root / "hypomnesis").is_dir():
        return [root]
    return sorted(p for p in root.iterdir() if p.is_dir())


def scan(root: Path) -> ScanResult:
    """Parse every session under a Claude Code config dir, its ``projects`` dir or one project.

    Raises:
        InvalidInput: ``root`` is missing or not a folder.
    """
    result = ScanResult(root=str(root), sessions=[])
    for slug_dir in _slug_dirs(root):
        slug = slug_dir.name
        top: dict[str, ParsedSession] = {}
        forks: dict[str, ParsedSession] = {}
        for f in sorted(slug_dir.glob("*.jsonl")):
            result.files += 1
            s = parse_transcript(f, slug=slug, kind="top", session_id=f.stem)
            (forks if s.fork_marker else top)[s.id] = s
        for f in sorted(slug_dir.glob("*/subagents/*.jsonl")):
            result.files += 1
            stem = f.stem.removeprefix("agent-")
            s = parse_transcript(f, slug=slug, kind="subagent", session_id=stem)
            s.parent_pointer = s.parent_pointer or f.parent.parent.name
            forks[s.id] = s
        for f in sorted((slug_dir / "hypomnesis" / "subagent").glob("*.jsonl")):
            result.files += 1
            for c in parse_captures(f, slug=slug):
                if c.id in top:  # a top-level transcript exists: not a fork (B.6)
                    top[c.id].malformed += c.malformed
                    continue
                known = forks.get(c.id)
                if known is None:
                    forks[c.id] = c
                else:
                    known.parent_pointer = known.parent_pointer or c.parent_pointer
                    known.malformed += c.malformed
                    if not known.turns:
                        known.turns = c.turns
        result.sessions.extend(top.values())
        result.sessions.extend(_parents_first(forks))
    result.malformed_lines = sum(s.malformed for s in result.sessions)
    return result


def _parents_first(forks: dict[str, ParsedSession]) -> list[ParsedSession]:
    """Forks ordered so that a fork's parent fork comes before it."""
    done: list[ParsedSession] = []
    seen: set[str] = set()

    def visit(s: ParsedSession, depth: int = 0) -> None:
        if s.id in seen or depth > 50:
            return
        p = forks.get(s.parent_pointer or "")
        if p is not None:
            visit(p, depth + 1)
        seen.add(s.id)
        done.append(s)

    for s in forks.values():
        visit(s)
    return done


@dataclass
class IngestReport:
    """What an ingest of agent transcripts did."""

    root: str
    files: int = 0
    sessions: int = 0
    ingested: int = 0
    unchanged: int = 0
    turns_added: int = 0
    forks: int = 0
    decisions_learned: int = 0
    orphan_forks: list[str] = field(default_factory=list)
    malformed_lines: int = 0

    def as_dict(self) -> dict[str, Any]:
        """Plain data (for ``--json``)."""
        return dict(self.__dict__)


def ingest(
    sessions: Any,
    root: Path,
    *,
    scope_id: str,
    owner_id: str,
    progress: Any = None,
    knowledge: Any = None,
) -> IngestReport:
    """Parse and store every session under ``root`` (idempotent; unchanged files are skipped).

    Args:
        sessions: The :class:`~recollect_graph.services.sessions.service.Sessions` service.
        root: A Claude Code config dir, its ``projects`` dir, or one project folder.
        scope_id: Scope the sessions go to.
        owner_id: Owner of their turns.
        progress: ``progress(done, total, session_id)`` after each session.
        knowledge: When given (the ``Knowledge`` service), each ingested session's decisions
            are also stored as ``decision`` entries linked ``FROM_SESSION``.
    """
    scanned = scan(root)
    report = IngestReport(root=str(root), files=scanned.files, sessions=len(scanned.sessions))
    report.malformed_lines = scanned.malformed_lines
    known = {
        r["id"]: r
        for r in sessions.db.read(
            "sessions/source_sizes", scope_id=scope_id, ids=[s.id for s in scanned.sessions]
        )
    }
    ids = {s.id for s in scanned.sessions}
    for n, s in enumerate(scanned.sessions, 1):
        if s.fork_marker:
            report.forks += 1
            if s.parent_pointer not in ids:
                report.orphan_forks.append(s.id)
        prior = known.get(s.id)
        if prior is not None and prior["source_size"] == s.size and s.size > 0:
            report.unchanged += 1
        else:
            done = sessions.add_turns(
                s.id,
                [
                    {"id": t.id, "role": t.role, "speaker": t.role, "text": t.text, "at": t.at}
                    for t in s.turns
                ],
                scope_id=scope_id,
                owner_id=owner_id,
                cwd=s.cwd,
                title=s.summaries[-1] if s.summaries else None,
                origin=s.entrypoint,
                parent_session_id=s.parent_pointer if s.fork_marker else None,
                _extra={
                    "git_branch": s.git_branch,
                    "transcript_path": s.path,
                    "source_size": s.size,
                    "artifacts": list(dict.fromkeys(s.artifacts))[:200],
                },
            )
            report.ingested += 1
            report.turns_added += done.added
            if knowledge is not None and done.added:
                report.decisions_learned += len(
                    sessions.learn_decisions(
                        s.id, scope_id=scope_id, owner_id=owner_id, knowledge=knowledge
                    )
                )
        if progress:
            progress(n, len(scanned.sessions), s.id)
    sessions.db.write("sessions/link_forks", scope_id=scope_id)
    return report
