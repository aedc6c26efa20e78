"""The shell-history learner: bash and zsh histories, secrets redacted before anything else.

Formats: zsh extended history (``: 1700000000:12;git push``, with ``\\`` continuation lines and
zsh's metafied bytes), bash with ``HISTTIMEFORMAT`` (``#1700000000`` before each command) and
plain one-command-per-line files (no times: such commands are fetched again each run and
skipped as already learned). Each command is redacted as it is read, so neither the stored
entry nor its source id (a hash of the redacted command) can carry a secret. Repeated commands
are collapsed into one event with a count and first/last use; trivial ones (``ls``, ``cd``,
``git status``...) are skipped. A command re-run with ``sudo`` right after is noted as failed
(the only failure the history formats show).
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from recollect_graph.learners.base import Event, Extract, LearnerError, Skip, stream_id
from recollect_graph.redaction import only_markers, redact

_ZSH = re.compile(r"^: (\d{9,11}):(\d+);(.*)$", re.S)
_BASH_TIME = re.compile(r"^#(\d{9,11})$")
_TRIVIAL = {
    "ls", "ll", "la", "l", "cd", "pwd", "clear", "exit", "logout", "history", "whoami", "date",
    "fg", "bg", "jobs", "top", "htop", "btop", "which", "type", "echo", "true", "false", "reset",
    "cls", "z", "j", "..", "...", "source", ".", "alias", "env", "printenv", "man", "tldr",
}  # fmt: skip
_TRIVIAL_GIT = {"status", "st", "diff", "log", "show", "branch", "add", "fetch", "pull", "stash",
                "checkout", "switch", "lg", "d", "s"}  # fmt: skip


@dataclass
class Command:
    """One distinct (redacted) command with how often and when it was used."""

    text: str
    count: int = 0
    first: datetime | None = None
    last: datetime | None = None
    failed: int = 0
    duration_s: int = 0
    files: set[str] = field(default_factory=set)


def unmetafy(raw: bytes) -> str:
    """Undo zsh's metafied bytes (0x83 then the byte xor 0x20) and decode as UTF-8."""
    if b"\x83" not in raw:
        return raw.decode("utf-8", "replace")
    out = bytearray()
    it = iter(raw)
    for b in it:
        if b == 0x83:
            nxt = next(it, None)
            if nxt is not None:
                out.append(nxt ^ 0x20)
        else:
            out.append(b)
    return bytes(out).decode("utf-8", "replace")


def parse_history(text: str) -> list[tuple[datetime | None, str, int]]:
    """``(time, command, duration seconds)`` in file order, for zsh or bash history text.

    Commands are already redacted. Lines ending in a backslash continue on the next line.
    """
    out: list[tuple[datetime | None, str, int]] = []
    pending_time: datetime | None = None
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        while line.endswith("\\") and i < len(lines):
            line = line[:-1] + "\n" + lines[i]
            i += 1
        m = _ZSH.match(line)
        if m:
            at: datetime | None = datetime.fromtimestamp(int(m.group(1)), UTC)
            cmd, dur = m.group(3), int(m.group(2))
        else:
            t = _BASH_TIME.match(line.strip())
            if t:
                pending_time = datetime.fromtimestamp(int(t.group(1)), UTC)
                continue
            at, cmd, dur = pending_time, line, 0
            pending_time = None
        cmd = cmd.strip()
        if cmd:
            out.append((at, redact(cmd), dur))
    return out


def _program(cmd: str) -> tuple[str, list[str]]:
    try:
        words = shlex.split(cmd, comments=True)
    except ValueError:
        words = cmd.split()
    while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
        words = words[1:]  # VAR=value prefixes
    if words and words[0] in ("sudo", "time", "nohup", "exec", "command", "builtin"):
        words = words[1:]
    return (os.path.basename(words[0]) if words else ""), words[1:]


def trivial_reason(cmd: str) -> str | None:
    """Why a command is not worth remembering, or None."""
    prog, args = _program(cmd)
    if not prog or len(cmd) < 3:
        return "trivial command"
    if prog.startswith("!"):
        return "history expansion"
    if prog in _TRIVIAL:
        return "trivial command"
    if prog == "git" and (not args or args[0] in _TRIVIAL_GIT):
        return "routine git command"
    if prog in ("vim", "vi", "nvim", "nano", "emacs", "code", "less", "more", "cat", "open"):
        return "file viewing or editing"
    if only_markers(cmd):
        return "only a secret"
    return None


class ShellLearner:
    """Shell history (bash, zsh): distinct commands with counts, secrets redacted.

    Args:
        files: History files (default: ``$HISTFILE``, ``~/.zsh_history`` and ``~/.bash_history``
            that exist).

    Raises:
        LearnerError: A given file does not exist, or no default history file was found.
    """

    def __init__(self, files: Sequence[str | Path] | str | Path | None = None) -> None:
        if files is None:
            cands = [os.environ.get("HISTFILE"), "~/.zsh_history", "~/.bash_history"]
            paths = [Path(c).expanduser() for c in cands if c]
            self.files = list(dict.fromkeys(p for p in paths if p.is_file()))
            if not self.files:
                raise LearnerError("shell: no history file found; give one with --file")
        else:
            given = [files] if isinstance(files, str | Path) else list(files)
            self.files = [Path(f).expanduser() for f in given]
            for f in self.files:
                if not f.is_file():
                    raise LearnerError(f"shell: {f} is not a file")

    def source(self) -> str:
        """``shell``."""
        return "shell"

    def stream(self) -> str:
        """The history files read (their resolved paths)."""
        return stream_id("\n".join(sorted(str(f.resolve()) for f in self.files)))

    def fetch_since(self, since: datetime | None, scope_id: str) -> list[Event]:
        """Distinct commands used at or after ``since`` (commands without a time: all)."""
        seen: dict[str, Command] = {}
        for f in self.files:
            try:
                raw = f.read_bytes()
            except OSError as e:
                raise LearnerError(f"shell: cannot read {f}: {e.strerror or e}") from e
            prev: str | None = None
            for at, cmd, dur in parse_history(unmetafy(raw)):
                if at is not None and since is not None and at < since:
                    prev = cmd
                    continue
                c = seen.setdefault(cmd, Command(cmd))
                c.count += 1
                c.duration_s = max(c.duration_s, dur)
                c.files.add(f.name)
                if at is not None:
                    c.first = at if c.first is None or at < c.first else c.first
                    c.last = at if c.last is None or at > c.last else c.last
                if prev is not None and _is_sudo_retry(prev, cmd) and prev in seen:
                    seen[prev].failed += 1
                prev = cmd
        return [
            Event(
                key=hashlib.sha256(c.text.encode()).hexdigest()[:24],
                at=c.last,
                data={
                    "command": c.text,
                    "count": c.count,
                    "first": c.first.isoformat() if c.first else None,
                    "last": c.last.isoformat() if c.last else None,
                    "failed": c.failed,
                    "duration_s": c.duration_s,
                    "files": sorted(c.files),
                },
            )
            for c in seen.values()
        ]

    def extract(self, event: Event) -> Extract | Skip:
        """A command as an observation (how often, when, whether it failed)."""
        d = event.data
        cmd = str(d["command"])
        reason = trivial_reason(cmd)
        if reason:
            return Skip(reason)
        prog, _args = _program(cmd)
        count, failed = int(d["count"]), int(d["failed"])
        when = f", last on {str(d['last'])[:10]}" if d.get("last") else ""
        lines = [f"Shell command (used {count}x{when}):\n{cmd}"]
        if failed:
            lines.append(f"It failed {failed}x: it was re-run with sudo right after.")
        if int(d["duration_s"]) >= 60:
            lines.append(f"It can run for {int(d['duration_s'])} seconds.")
        tags = ["shell", "command", f"cmd:{prog.lower()[:40]}"]
        if failed:
            tags.append("failed")
        return Extract(
            content="\n".join(lines),
            source_id=event.key,
            entry_type="observation",
            valence="negative" if failed else "neutral",
            tags=tags,
            metadata={
                "command": cmd,
                "program": prog,
                "count": count,
                "first_used": d.get("first"),
                "last_used": d.get("last"),
                "failed": failed,
                "history_files": d["files"],
            },
            half_life_days=14.0 if count < 3 else 30.0,
            valid_from=datetime.fromisoformat(str(d["first"])) if d.get("first") else None,
        )


def _is_sudo_retry(prev: str, cmd: str) -> bool:
    c = cmd.strip()
    return c == "sudo !!" or (c.startswith("sudo ") and c[5:].strip() == prev.strip())
