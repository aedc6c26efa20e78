"""Where an entry was written: git repository, branch, working path and operating system.

The repository (its top level and ``origin`` remote) is looked up once per working directory and
process: it does not change under a running process. The branch does (a checkout while an MCP
server or a notebook runs), so it is read on every call, cheaply: the ``HEAD`` file of the git
directory is read directly (no ``git`` process), following a worktree's or submodule's
``.git`` file (``gitdir: ...``) to its real git directory. A detached ``HEAD`` records no branch.
The caller's own ``context_hints`` replace all of this.
"""

from __future__ import annotations

import functools
import os
import platform
import re
import subprocess

_REF_HEAD = "ref: refs/heads/"


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
def _detect_repo(cwd: str) -> tuple[tuple[str, str], ...]:
    """The parts that do not change under a running process: path, os, repo root and name."""
    hints: dict[str, str] = {"path": cwd, "os": platform.system().lower()}
    top = _git(["rev-parse", "--show-toplevel"], cwd)
    if top:
        hints["repo_root"] = top
        remote = _git(["remote", "get-url", "origin"], cwd)
        hints["repo"] = repo_name(remote) if remote else os.path.basename(top)
    return tuple(sorted(hints.items()))


def git_dir(start: str) -> str | None:
    """The git directory of the work tree holding ``start`` (``None`` outside one).

    ``.git`` itself, or where a ``.git`` file (``gitdir: <path>``, as in linked worktrees and
    submodules) points.
    """
    here = os.path.abspath(start)
    while True:
        dot = os.path.join(here, ".git")
        if os.path.isdir(dot):
            return dot
        if os.path.isfile(dot):
            try:
                with open(dot, encoding="utf-8") as fh:
                    line = fh.readline().strip()
            except OSError:
                return None
            if line.startswith("gitdir:"):
                target = line[len("gitdir:") :].strip()
                return os.path.normpath(os.path.join(here, target))
            return None
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def current_branch(cwd: str) -> str | None:
    """The branch checked out in the work tree holding ``cwd``, read from its ``HEAD`` now.

    ``None`` outside a repository or on a detached ``HEAD``.
    """
    gd = git_dir(cwd)
    if gd is None:
        return None
    try:
        with open(os.path.join(gd, "HEAD"), encoding="utf-8") as fh:
            head = fh.readline().strip()
    except OSError:
        return None
    if head.startswith(_REF_HEAD):
        return head[len(_REF_HEAD) :] or None
    return None


def detect(cwd: str | None = None) -> dict[str, str]:
    """Context hints for ``cwd`` (default: the process's working directory).

    The branch is read on every call; the repository once per directory.
    """
    where = cwd or os.getcwd()
    hints = dict(_detect_repo(where))
    if "repo_root" in hints:
        branch = current_branch(where)
        if branch:
            hints["branch"] = branch
    return hints
