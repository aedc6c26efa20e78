"""Real data for the demo: a project's own Markdown documentation and git history as entries.

Markdown files become one entry per section (heading as title, the file and heading as the
stable ``source_id``); commits become ``commit`` entries keyed by their sha. Sections of one file
are linked ``part_of`` their file's first section; consecutive commits ``leads_to`` the next;
a commit that names a documented file ``references`` that file's first section.
"""

from __future__ import annotations

import itertools
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

_HEADING = re.compile(r"^(#{1,4})\s+(.+?)\s*#*\s*$")


@dataclass
class Loaded:
    """Items to remember and the links to make between them (by source id)."""

    items: list[dict[str, Any]] = field(default_factory=list)
    links: list[tuple[str, str, str, str]] = field(default_factory=list)  # src, dst, rel, why


def markdown_sections(path: Path, root: Path) -> Iterator[dict[str, Any]]:
    """One item per heading section of a Markdown file (code fences kept with their section)."""
    rel = path.relative_to(root).as_posix()
    title, in_fence = rel, False
    buf: list[str] = []
    seen: dict[str, int] = {}

    def unique(t: str) -> str:  # a heading repeated in one file ("Results") gets a number
        seen[t] = seen.get(t, 0) + 1
        return t if seen[t] == 1 else f"{t} ({seen[t]})"

    for line in path.read_text(errors="replace").splitlines():
        if line.strip().startswith("```"):
            in_fence = not in_fence
        m = None if in_fence else _HEADING.match(line)
        if m:
            yield from _section(rel, title, buf)
            title, buf = unique(m.group(2).strip()), []
        else:
            buf.append(line)
    yield from _section(rel, title, buf)


def _section(rel: str, title: str, lines: list[str]) -> Iterator[dict[str, Any]]:
    body = "\n".join(lines).strip()
    if len(body) < 40:
        return
    yield {
        "content": body[:6000],
        "title": f"{rel}: {title}"[:300],
        "entry_type": "document",
        "source": "system",
        "source_id": f"doc:{rel}#{title}",
        "tags": ["docs", Path(rel).stem.lower()],
        "metadata": {"path": rel, "heading": title},
    }


def git_commits(repo: Path, limit: int = 300) -> list[dict[str, Any]]:
    """Commits (subject and body) as ``commit`` entries, oldest first. Empty outside a repo."""
    fmt = "%x1e%H%x1f%an%x1f%aI%x1f%B%x1d"
    try:
        out = subprocess.run(
            ["git", "log", f"-{limit}", f"--format={fmt}", "--name-only"],
            cwd=repo,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    items = []
    for rec in out.split("\x1e"):
        parts = rec.strip("\n").split("\x1f")
        if len(parts) < 4:
            continue
        sha, author, when, rest = parts[0].strip(), parts[1], parts[2], parts[3]
        message, _, names = rest.partition("\x1d")
        message = message.strip()
        files = [n.strip() for n in names.splitlines() if n.strip()]
        items.append(
            {
                "content": message,
                "title": f"commit {sha[:10]}: {message.splitlines()[0][:120]}",
                "entry_type": "commit",
                "source": "system",
                "source_id": f"git:{sha}",
                "tags": ["git"],
                "metadata": {"sha": sha, "author": author, "files": files},
                "valid_from": datetime.fromisoformat(when).astimezone(UTC),
            }
        )
    return list(reversed(items))


def load_project(root: Path, *, max_commits: int = 300) -> Loaded:
    """README, ``docs/**/*.md`` and the git log of ``root`` as items plus links."""
    out = Loaded()
    files = [p for p in [root / "README.md"] if p.is_file()]
    files += sorted((root / "docs").rglob("*.md")) if (root / "docs").is_dir() else []
    first_of: dict[str, str] = {}
    for f in files:
        for sec in markdown_sections(f, root):
            out.items.append(sec)
            path = sec["metadata"]["path"]
            if path in first_of:
                out.links.append(
                    (sec["source_id"], first_of[path], "part_of", f"section of {path}")
                )
            else:
                first_of[path] = sec["source_id"]
    commits = git_commits(root, max_commits)
    for prev, cur in itertools.pairwise(commits):
        out.links.append((prev["source_id"], cur["source_id"], "leads_to", "next commit"))
    for c in commits:
        for path, sid in first_of.items():
            if path in c["metadata"]["files"] or path in c["content"]:
                out.links.append((c["source_id"], sid, "references", f"touches {path}"))
    out.items += commits
    return out
