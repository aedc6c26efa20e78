"""The git learner: commits with their full bodies, noise skipped, areas summarised, migrations.

``git log --all --source --name-status`` with a fixed format (unit and record separators, so a
body with newlines is never a parsing problem) gives each commit's sha, parents, author, dates,
branch, subject, full body and changed paths. Each commit that is not noise becomes an entry
(``source_id`` = the sha): type from the conventional-commit prefix or the wording, valence
from the type, tags for type, area and branch. Noise (merges, version and dependency bumps,
typo and formatting fixes, work in progress) is skipped with its reason, unless the commit
explains itself in a body. A revert retires the commit it reverts. ``summarize`` groups a run's
commits by area; ``detect_patterns`` finds technology transitions (:mod:`.git_stack`).
"""

from __future__ import annotations

import re
import subprocess
from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from recollect_graph.learners import git_stack
from recollect_graph.learners.base import Event, Extract, LearnerError, Pattern, Skip, stream_id

_FORMAT = "%x1e%H%x1f%P%x1f%an%x1f%aI%x1f%cI%x1f%S%x1f%D%x1f%s%x1f%b%x1f"
_CONVENTIONAL = re.compile(r"^(\w+)(?:\(([^)]*)\))?(!)?:\s*(.*)$", re.S)
_CONV_TYPES = {
    "feat": "feature", "feature": "feature", "fix": "fix", "bugfix": "fix", "hotfix": "fix",
    "docs": "docs", "doc": "docs", "refactor": "refactor", "perf": "perf", "test": "test",
    "tests": "test", "build": "build", "ci": "ci", "chore": "chore", "style": "style",
    "revert": "revert", "deps": "build",
}  # fmt: skip
_MIGRATION = re.compile(
    r"\bmigrat(?:e|ed|es|ing)\b|\breplace[ds]?\s+\S+\s+(?:with|by)\b"
    r"|\bswitch(?:ed|es)?\s+(?:from|to)\b"
)
_WORD_TYPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("merge", re.compile(r"^merge\b")),
    ("revert", re.compile(r"^revert\b")),
    ("breaking", re.compile(r"\bbreaking\b")),
    ("migration", _MIGRATION),
    ("fix", re.compile(r"\b(?:fix|fixes|fixed|fixing|bug|bugfix|hotfix|patch)\b")),
    ("feature", re.compile(r"\b(?:add|adds|added|implement|implements|implemented|introduce"
                           r"|introduces|support|feature)\b")),
    ("docs", re.compile(r"\b(?:docs?|readme|documentation|changelog)\b")),
    ("refactor", re.compile(r"\brefactor")),
    ("test", re.compile(r"\b(?:tests?|testing|specs?)\b")),
    ("perf", re.compile(r"\b(?:perf|performance|speed up|faster)\b")),
)  # fmt: skip
_NOISE: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("version bump", re.compile(
        r"^(?:chore(?:\(release\))?:\s*)?(?:v?\d+\.\d+(?:\.\d+)?(?:[-.+]\w+)*$"
        r"|(?:release|bump(?:ed)?(?: the)? version|version)\b.{0,20}?v?\d+\.\d+)")),
    ("dependency bump", re.compile(
        r"^(?:(?:build|chore|fix)\(deps(?:-dev)?\):\s*)?bump(?:s|ed)?\s+\S+\s+from\s+\S+\s+to\b"
        r"|^(?:build|chore)\(deps(?:-dev)?\):\s*(?:bump|update)")),
    ("typo fix", re.compile(r"\btypos?\b|\bspelling\b|\bmisspell")),
    ("formatting", re.compile(
        r"^style(?:\([^)]*\))?:|\bwhitespace\b|\bre-?format(?:ting|ted)?\b|\bformatting\b"
        r"|\blint(?:ing)? fix|\bfix(?:es|ed)? lint|\btrailing spaces?\b|\bcode style\b")),
    ("work in progress", re.compile(r"^(?:wip\b|fixup!|squash!|amend!|tmp\b|temp\b)")),
    ("initial commit", re.compile(r"^(?:initial|first) commit\.?$")),
    ("no description", re.compile(r"^(?:\W*|update|updates|changes|misc|stuff|minor|wip)$")),
)  # fmt: skip
_MERGE_SUBJECT = re.compile(r"^merge (?:branch|remote-tracking|pull request|tag|commit|')")
_TRAILER = re.compile(r"^[A-Z][\w-]*(?:-by|-Id|-authored-by)?:\s|^\(cherry picked from", re.I)
_REVERTS = re.compile(r"This reverts commit ([0-9a-f]{7,40})")
_CONTAINERS = {"src", "lib", "app", "apps", "packages", "pkg", "cmd", "internal", "services",
               "modules", "components", "tests", "test"}  # fmt: skip
_STOPWORDS = {"the", "and", "for", "with", "from", "into", "add", "fix", "update", "remove",
              "refactor", "move", "rename", "clean", "use", "make", "more", "new"}  # fmt: skip
_VALENCE = {"fix": "negative", "breaking": "negative", "revert": "negative",
            "feature": "positive"}  # fmt: skip
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_HALF_LIFE = {"breaking": 90.0, "migration": 90.0, "feature": 30.0, "fix": 30.0, "revert": 30.0}


def _run(args: list[str], cwd: Path) -> str:
    try:
        out = subprocess.run(
            ["git", "-c", "core.quotepath=off", "-c", "log.showSignature=false", *args],
            cwd=cwd,
            capture_output=True,
            timeout=600,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as e:
        raise LearnerError(f"cannot run git in {cwd}: {e}") from e
    if out.returncode != 0:
        msg = out.stderr.decode("utf-8", "replace").strip().splitlines()
        raise LearnerError(f"git {args[0]} failed in {cwd}: {msg[-1] if msg else out.returncode}")
    return out.stdout.decode("utf-8", "replace")


def body_text(body: str) -> str:
    """The body without trailers (Signed-off-by, Co-authored-by, Change-Id...)."""
    lines = [ln for ln in body.strip().splitlines() if not _TRAILER.match(ln.strip())]
    return "\n".join(lines).strip()


def commit_type(subject: str, body: str) -> tuple[str, str | None, bool]:
    """(type, conventional scope, breaking) of a commit."""
    s = subject.strip()
    breaking = "BREAKING CHANGE" in body or "BREAKING-CHANGE" in body
    m = _CONVENTIONAL.match(s)
    low = s.lower()
    if m and m.group(1).lower() in _CONV_TYPES:
        t = _CONV_TYPES[m.group(1).lower()]
        breaking = breaking or bool(m.group(3))
        rest = m.group(4).lower()
        if t not in ("revert", "docs") and _MIGRATION.search(rest):
            t = "migration"
        return ("breaking" if breaking else t), (m.group(2) or "").strip().lower() or None, breaking
    if breaking:
        return "breaking", None, True
    for name, rx in _WORD_TYPES:
        if rx.search(low):
            return name, None, False
    return "other", None, False


def noise_reason(subject: str, body: str, parents: int) -> str | None:
    """Why a commit is noise, or None. A commit that explains itself in a body is kept."""
    text = body_text(body)
    low = subject.strip().lower()
    if parents > 1 or _MERGE_SUBJECT.match(low):
        substantive = len(text) >= 80 or len([ln for ln in text.splitlines() if ln.strip()]) >= 2
        return None if substantive else "merge commit"
    if text:
        return None
    for reason, rx in _NOISE:
        if rx.search(low):
            return reason
    return None


def area_of(scope: str | None, files: Sequence[Sequence[str]], subject: str) -> str:
    """The part of the project a commit touches: conventional scope, else its main folder."""
    if scope:
        return scope
    areas: Counter[str] = Counter()
    for _st, path in files:
        parts = path.split("/")
        if len(parts) == 1:
            base = parts[0].lower()
            if base.endswith((".md", ".rst", ".txt")):
                areas["docs"] += 1
            elif git_stack.is_dependency_file(base) or base.endswith(".lock"):
                areas["dependencies"] += 1
            else:
                areas["root"] += 1
        elif parts[0] in _CONTAINERS and len(parts) > 2:
            areas[f"{parts[0]}/{parts[1]}"] += 1
        else:
            areas[parts[0]] += 1
    if areas:
        return areas.most_common(1)[0][0]
    words = [w for w in re.split(r"[^a-z0-9_]+", subject.lower()) if len(w) >= 3]
    return next((w for w in words if w not in _STOPWORDS), "general")


class GitLearner:
    """Commits of a git repository (all branches), with bodies, paths, areas and migrations.

    Args:
        repo: A path inside the repository (default: the working directory).
        all_branches: Read every ref (``--all``), not just HEAD.

    Raises:
        LearnerError: ``repo`` is not inside a git repository.
    """

    def __init__(self, repo: str | Path = ".", *, all_branches: bool = True) -> None:
        path = Path(repo).expanduser()
        if not path.is_dir():
            raise LearnerError(f"git: {repo} is not a directory")
        self.root = Path(_run(["rev-parse", "--show-toplevel"], path).strip())
        self.all_branches = all_branches

    def source(self) -> str:
        """``git``."""
        return "git"

    def stream(self) -> str:
        """The repository's identity: its first commit (the same in every clone)."""
        roots = _run(["rev-list", "--max-parents=0", "--all"], self.root).split() or [
            str(self.root)
        ]
        return stream_id(sorted(roots)[0])

    # -- fetch ------------------------------------------------------------------------------
    def fetch_since(self, since: datetime | None, scope_id: str) -> list[Event]:
        """Commits made at or after ``since`` (all when None), with their dependency changes."""
        if not _run(["rev-list", "-n", "1", "--all"], self.root).strip():
            return []  # a repository with no commits yet
        args = [
            "log",
            "--all" if self.all_branches else "HEAD",
            "--source",
            "--date-order",
            "--no-renames",
            "--name-status",
            f"--format={_FORMAT}",
        ]
        if since is not None:
            args.append(f"--since={since.isoformat()}")
        rows = [_parse(rec) for rec in _run(args, self.root).split("\x1e")[1:]]
        rows = [r for r in rows if since is None or r["at"] >= since]
        self._main_branch(rows, since)
        self._add_dependency_changes(rows, since)
        return [Event(key=r.pop("sha_key"), at=r.pop("at"), data=r) for r in rows]

    def _main_branch(self, rows: list[dict[str, Any]], since: datetime | None) -> None:
        """Commits reachable from HEAD are on HEAD's branch (``--source`` names any ref)."""
        head = _run(["rev-parse", "--abbrev-ref", "HEAD"], self.root).strip()
        if head in ("", "HEAD"):
            return
        args = ["rev-list", "HEAD"] + ([f"--since={since.isoformat()}"] if since else [])
        on_head = set(_run(args, self.root).split())
        for r in rows:
            if r["sha"] in on_head:
                r["branch"] = head

    def _add_dependency_changes(self, rows: list[dict[str, Any]], since: datetime | None) -> None:
        touched = {
            r["sha"] for r in rows if any(git_stack.is_dependency_file(p) for _s, p in r["files"])
        }
        if not touched:
            return
        args = [
            "log",
            "--all" if self.all_branches else "HEAD",
            "--no-renames",
            "-p",
            "--unified=0",
            "--format=%x1e%H",
        ]
        if since is not None:
            args.append(f"--since={since.isoformat()}")
        specs = [f":(glob)**/{name}" for name in git_stack.DEPENDENCY_FILES]
        specs.append(":(glob)**/requirements*.txt")
        diffs: dict[str, list[list[str]]] = {}
        for rec in _run([*args, "--", *specs], self.root).split("\x1e")[1:]:
            sha, _, diff = rec.partition("\n")
            if sha.strip() not in touched:
                continue
            lines = diff.splitlines()
            removed = [ln[1:] for ln in lines if ln.startswith("-") and not ln.startswith("---")]
            added = [ln[1:] for ln in lines if ln.startswith("+") and not ln.startswith("+++")]
            diffs[sha.strip()] = [
                list(p)
                for p in git_stack.pairs(
                    git_stack.dependency_techs(removed), git_stack.dependency_techs(added)
                )
            ]
        for r in rows:
            if diffs.get(r["sha"]):
                r["dependency_transitions"] = diffs[r["sha"]]

    # -- extract ----------------------------------------------------------------------------
    def extract(self, event: Event) -> Extract | Skip:
        """One commit as an entry, or the reason it is noise."""
        d = event.data
        subject, body = str(d["subject"]), str(d["body"])
        if not subject and not body:
            return Skip("no description")
        reason = noise_reason(subject, body, int(d["parents"]))
        if reason:
            return Skip(reason)
        kind, conv_scope, breaking = commit_type(subject, body)
        files = d["files"]
        area = area_of(conv_scope, files, subject)
        branch = str(d["branch"])
        paths = [p for _s, p in files]
        shown = ", ".join(paths[:15]) + (f" (+{len(paths) - 15} more)" if len(paths) > 15 else "")
        parts = [subject, body_text(body)]
        if shown:
            parts.append(f"Changed: {shown}")
        on_branch = f", branch {branch}" if branch not in ("main", "master") else ""
        parts.append(f"(commit {event.key[:10]} by {d['author']}, {d['authored'][:10]}{on_branch})")
        tags = ["git", "commit", f"type:{kind}", f"area:{area}"]
        if branch not in ("main", "master"):
            tags.append(f"branch:{branch}")
        if breaking:
            tags.append("breaking")
        valence = _VALENCE.get(kind) or (
            "negative" if re.search(r"\b(?:fail|error|crash)", subject.lower()) else "neutral"
        )
        return Extract(
            content="\n\n".join(p for p in parts if p),
            source_id=event.key,
            entry_type="decision" if kind in ("migration", "breaking") else "commit",
            valence=valence,
            tags=tags,
            metadata={
                "commit_sha": event.key,
                "author": d["author"],
                "authored_at": d["authored"],
                "branch": branch,
                "commit_type": kind,
                "area": area,
                "paths": paths[:50],
                "files_changed": len(paths),
                "parents": d["parents"],
            },
            summary=subject[:200] or None,
            half_life_days=_HALF_LIFE.get(kind, 14.0),
            valid_from=datetime.fromisoformat(str(d["authored"])) if d["authored"] else None,
            supersedes=_REVERTS.findall(body) if kind == "revert" else (),
        )

    # -- patterns and summaries ---------------------------------------------------------------
    def detect_patterns(self, events: Sequence[Event]) -> list[Pattern]:
        """Technology transitions: ``migration`` patterns (old -> new) with their commits."""
        found: dict[tuple[str, str], list[Event]] = defaultdict(list)
        for e in events:
            d = e.data
            pairs = set(git_stack.subject_transitions(str(d["subject"])))
            pairs |= set(git_stack.file_transitions(d["files"]))
            pairs |= {tuple(p) for p in d.get("dependency_transitions", [])}
            for old, new in sorted(pairs):
                found[(old, new)].append(e)
        out = []
        for (old, new), evs in found.items():
            first = evs[-1].data
            out.append(
                Pattern(
                    type="migration",
                    events=evs,
                    summary=f"Migration from {old} to {new} (commit {evs[-1].key[:10]}: "
                    f"{first['subject']})",
                    old=old,
                    new=new,
                )
            )
        return out

    def summarize(self, events: Sequence[Event], scope_id: str) -> list[Extract]:
        """One summary per area with at least three kept commits in this run."""
        groups: dict[str, list[tuple[Event, str]]] = defaultdict(list)
        for e in sorted(events, key=lambda e: (e.at is None, e.at or _EPOCH, e.key)):
            d = e.data
            if noise_reason(str(d["subject"]), str(d["body"]), int(d["parents"])):
                continue
            kind, conv_scope, _ = commit_type(str(d["subject"]), str(d["body"]))
            groups[area_of(conv_scope, d["files"], str(d["subject"]))].append((e, kind))
        return [
            _area_summary(area, items) for area, items in sorted(groups.items()) if len(items) >= 3
        ]


def _parse(record: str) -> dict[str, Any]:
    f = record.split("\x1f")
    if len(f) < 10:
        raise LearnerError(f"git: unexpected log record {record[:80]!r}")
    sha, parents, author, authored, committed, src, refs, subject, body, names = f[:10]
    files = [ln.split("\t", 1) for ln in names.strip().splitlines() if "\t" in ln]
    return {
        "sha_key": sha,
        "at": datetime.fromisoformat(committed.strip()),
        "sha": sha,
        "parents": len(parents.split()),
        "author": author,
        "authored": authored.strip(),
        "branch": _branch(src, refs),
        "subject": subject.strip(),
        "body": body.strip(),
        "files": [[st[:1], p] for st, p in files],
    }


def _branch(source: str, refs: str) -> str:
    for ref in [source.strip(), *(r.strip() for r in refs.split(","))]:
        ref = ref.removeprefix("HEAD -> ").strip()
        if not ref or ref == "HEAD" or ref.startswith("tag: "):
            continue
        for prefix in ("refs/heads/", "refs/remotes/", "refs/tags/"):
            ref = ref.removeprefix(prefix)
        if ref.startswith(("origin/", "upstream/")):
            ref = ref.split("/", 1)[1]
        if ref and ref != "HEAD":
            return ref
    return "main"


def _area_summary(area: str, items: list[tuple[Event, str]]) -> Extract:
    kinds = Counter(k for _e, k in items)
    n = len(items)
    breakdown = ", ".join(f"{c} {k}" for k, c in kinds.most_common())
    dates = sorted(str(e.data["authored"])[:10] for e, _k in items)
    lines = [f"- {e.data['subject']} ({e.key[:8]})" for e, _k in items[-10:]]
    if n > 10:
        lines.insert(0, f"- ... and {n - 10} earlier commits")
    if (kinds["migration"] + kinds["breaking"]) / n > 0.3:
        insight, valence = "migration", "negative"
    elif kinds["fix"] / n > 0.5:
        insight, valence = "bug_cluster", "negative"
    elif kinds["feature"] / n > 0.5:
        insight, valence = "feature_development", "positive"
    else:
        insight, valence = "area_evolution", "positive" if kinds["feature"] else "neutral"
    first, last = items[0][0].key, items[-1][0].key
    return Extract(
        content=f"Development activity in {area} ({n} commits, {dates[0]} to {dates[-1]}): "
        f"{breakdown}.\n" + "\n".join(lines),
        source_id=f"area:{area}:{first[:12]}..{last[:12]}",
        entry_type="note",
        valence=valence,
        tags=["git", "summary", f"area:{area}"],
        metadata={"insight_type": insight, "area": area, "commits": n, "types": dict(kinds)},
        summary=f"{area}: {n} commits - {breakdown}",
        confidence=0.9,
        half_life_days=30.0,
    )
