"""Where an entry was written: git repository, branch, working path and operating system.

Captured once per working directory and process (the git commands are not re-run on every
``remember``), unless the caller passes ``context_hints``.
"""

from __future__ import annotations

import functools
import os
import platform
import re
import subprocess


def _git(args: list[str], cwd: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", *args], cwd=cwd, capture_output=True, text=True, timeout=5, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def repo_name(remote_url: str) -> str:
    """``owner/name`` for GitHub-style remotes, else the URL without ``.git``."""
    url = remote_url.strip().removesuffix(".git")
    m = re.match(r"^(?:git@[^:]+:|https?://[^/]+/|ssh://git@[^/]+/)(.+)$", url)
    return m.group(1) if m else url


@functools.lru_cache(maxsize=16)
def _detect(cwd: str) -> tuple[tuple[str, str], ...]:
    hints: dict[str, str] = {"path": cwd, "os": platform.system().lower()}
    top = _git(["rev-parse", "--show-toplevel"], cwd)
    if top:
        hints["repo_root"] = top
        remote = _git(["remote", "get-url", "origin"], cwd)
        hints["repo"] = repo_name(remote) if remote else os.path.basename(top)
        branch = _git(["rev-parse", "--abbrev-ref", "HEAD"], cwd)
        if branch and branch != "HEAD":
            hints["branch"] = branch
    return tuple(sorted(hints.items()))


def detect(cwd: str | None = None) -> dict[str, str]:
    """Context hints for ``cwd`` (default: the process's working directory)."""
    return dict(_detect(cwd or os.getcwd()))
