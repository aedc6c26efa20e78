"""The notes learner: a folder of Markdown (or text) notes, one entry per note or per section.

A short note (or one without ``##`` headings) is one entry; a longer one is split at its ``#``/
``##`` headings, with the text before the first heading as its own section. ``source_id`` is the
note's path relative to the folder plus the section (``guides/deploy.md#rollback``), and the
revision is the section's content hash: when a note changes, the changed sections become new
revisions that supersede the old ones, and unchanged sections are skipped as already learned.

Front matter (``---`` ... ``---`` at the top) is honoured: ``title``, ``tags`` (a list or comma
text), ``type`` (an entry type), ``date`` (when it became true), ``pinned``, ``summary`` or
``description``, ``confidence``; ``draft: true`` or ``learn: false`` skips the note. A file that
is not text (a NUL byte, or mostly not UTF-8) is skipped with that reason.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from recollect_graph.errors import InvalidInput
from recollect_graph.learners.base import Event, Extract, LearnerError, Skip, stream_id
from recollect_graph.services.kernel.validation import file_text
from recollect_graph.vocabulary import ENTRY_TYPES

SPLIT_OVER = 1500
#: Why a note file is skipped when it is not text (a NUL byte, or mostly not UTF-8).
NOT_TEXT = "not a text file (binary, or not UTF-8)"
_HEADING = re.compile(r"^(#{1,2})\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


def front_matter(text: str) -> tuple[dict[str, Any], str]:
    """``(fields, body)``: simple YAML front matter (``key: value``, lists) and the rest."""
    if not text.startswith("---"):
        return {}, text
    lines = text.splitlines()
    end = next((i for i in range(1, len(lines)) if lines[i].strip() in ("---", "...")), None)
    if end is None:
        return {}, text
    out: dict[str, Any] = {}
    key: str | None = None
    for line in lines[1:end]:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        item = re.match(r"^\s*-\s+(.*)$", line)
        if item and key is not None:
            cur = out.get(key)
            out[key] = [*(cur if isinstance(cur, list) else []), _scalar(item.group(1))]
            continue
        m = re.match(r"^([A-Za-z0-9_-]+)\s*:\s*(.*)$", line)
        if m:
            key, raw = m.group(1).lower(), m.group(2).strip()
            if raw.startswith("[") and raw.endswith("]"):
                out[key] = [_scalar(v) for v in raw[1:-1].split(",") if v.strip()]
            else:
                out[key] = _scalar(raw) if raw else []
    return out, "\n".join(lines[end + 1 :])


def _scalar(raw: str) -> Any:
    v = raw.strip().strip("\"'")
    low = v.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if re.fullmatch(r"-?\d+(?:\.\d+)?", v):
        return float(v) if "." in v else int(v)
    return v


def sections(body: str) -> list[tuple[str | None, str]]:
    """``(heading, text)`` pairs split at ``#`` and ``##`` headings (not inside code fences)."""
    out: list[tuple[str | None, list[str]]] = [(None, [])]
    fenced = False
    for line in body.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        m = None if fenced else _HEADING.match(line)
        if m:
            out.append((m.group(2).strip(), []))
        else:
            out[-1][1].append(line)
    return [(h, "\n".join(ls).strip()) for h, ls in out]


def slug(text: str) -> str:
    """A heading as a URL-style anchor."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:80] or "section"


def _when(v: Any) -> datetime | None:
    if isinstance(v, datetime):
        return v if v.tzinfo else v.replace(tzinfo=UTC)
    if isinstance(v, date):
        return datetime(v.year, v.month, v.day, tzinfo=UTC)
    if isinstance(v, str):
        try:
            d = datetime.fromisoformat(v)
        except ValueError:
            return None
        return d if d.tzinfo else d.replace(tzinfo=UTC)
    return None


class NotesLearner:
    """A folder of Markdown or text notes: one entry per note or per section.

    Args:
        folder: The notes folder (searched recursively).
        patterns: File globs to read.

    Raises:
        LearnerError: ``folder`` is not a directory.
    """

    def __init__(
        self, folder: str | Path, patterns: Sequence[str] = ("*.md", "*.markdown", "*.txt")
    ) -> None:
        self.folder = Path(folder).expanduser()
        if not self.folder.is_dir():
            raise LearnerError(f"notes: {folder} is not a directory")
        self.patterns = tuple(patterns)

    def source(self) -> str:
        """``notes``."""
        return "notes"

    def stream(self) -> str:
        """The folder read."""
        return stream_id(str(self.folder.resolve()))

    def fetch_since(self, since: datetime | None, scope_id: str) -> list[Event]:
        """The sections of every note modified at or after ``since``."""
        files = sorted({f for p in self.patterns for f in self.folder.rglob(p) if f.is_file()})
        events: list[Event] = []
        for f in files:
            rel = f.relative_to(self.folder).as_posix()
            if any(part.startswith(".") for part in rel.split("/")):
                continue
            at = datetime.fromtimestamp(f.stat().st_mtime, UTC)
            if since is not None and at < since:
                continue
            try:
                text = file_text(f.read_bytes(), rel)
            except OSError as e:
                raise LearnerError(f"notes: cannot read {f}: {e.strerror or e}") from e
            except InvalidInput:
                # Skipped (counted with this reason), like a draft: a binary file named .md.
                events.append(Event(key=rel, at=at, data={"path": rel, "not_text": True}))
                continue
            events += self._note_events(rel, at, text)
        return events

    def _note_events(self, rel: str, at: datetime, text: str) -> list[Event]:
        meta, body = front_matter(text)
        parts = sections(body)
        title = str(meta.get("title") or "") or next((h for h, _ in parts if h), None)
        title = title or Path(rel).stem.replace("-", " ").replace("_", " ")
        whole = len(body) <= SPLIT_OVER or sum(1 for h, _ in parts if h) < 2
        chunks = [(None, body.strip())] if whole else [(h, t) for h, t in parts if h or t]
        out: list[Event] = []
        used: set[str] = set()
        for heading, content in chunks:
            anchor = slug(heading) if heading else ("note" if whole else "intro")
            n, base = 2, anchor
            while anchor in used:
                anchor, n = f"{base}-{n}", n + 1
            used.add(anchor)
            key = rel if whole else f"{rel}#{anchor}"
            out.append(
                Event(
                    key=key,
                    at=at,
                    data={
                        "path": rel,
                        "title": title,
                        "heading": heading,
                        "text": content,
                        "meta": {
                            k: (v.isoformat() if isinstance(v, date) else v)
                            for k, v in meta.items()
                        },
                        "whole": whole,
                    },
                )
            )
        return out

    def extract(self, event: Event) -> Extract | Skip:
        """A note (or section) as an entry; drafts and empty sections are skipped."""
        d = event.data
        if d.get("not_text"):
            return Skip(NOT_TEXT)
        meta: dict[str, Any] = dict(d["meta"])
        if meta.get("draft") is True or meta.get("learn") is False:
            return Skip("draft or excluded by front matter")
        text = str(d["text"]).strip()
        if not text:
            return Skip("empty section")
        title, heading = str(d["title"]), d["heading"]
        head = f"{title} - {heading}" if heading and heading != title else title
        tags = meta.get("tags") or []
        if isinstance(tags, str):
            tags = [t.strip() for t in tags.split(",")]
        folder = str(d["path"]).rsplit("/", 1)[0] if "/" in str(d["path"]) else None
        all_tags = ["notes", *(str(t) for t in tags if str(t).strip())]
        if folder:
            all_tags.append(f"folder:{folder}")
        etype = meta.get("type") if meta.get("type") in ENTRY_TYPES else "note"
        conf = meta.get("confidence")
        return Extract(
            content=f"{head}\n\n{text}",
            source_id=event.key.replace("@", "%40"),
            revision=hashlib.sha256(f"{head}\n{text}".encode()).hexdigest()[:12],
            entry_type=str(etype),
            valence="neutral",
            tags=list(dict.fromkeys(all_tags)),
            metadata={
                "path": d["path"],
                "title": title,
                "section": heading,
                "front_matter": meta,
            },
            summary=str(meta.get("summary") or meta.get("description") or "") or None,
            confidence=float(conf) if isinstance(conf, int | float) and 0 <= conf <= 1 else 1.0,
            half_life_days=30.0,
            pinned=meta.get("pinned") is True,
            valid_from=_when(meta.get("date")),
        )
