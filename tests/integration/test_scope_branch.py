"""Context capture reads the git branch on every call, not once per process (issue 19 item 5)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from recollect_graph import Recollect


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), *args],
        check=True,
        capture_output=True,
        env={"GIT_CONFIG_NOSYSTEM": "1", "HOME": str(repo), "PATH": "/usr/bin:/bin"},
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    r = tmp_path / "proj"
    r.mkdir()
    _git(r, "init", "-q", "-b", "main")
    _git(r, "-c", "user.email=k@x", "-c", "user.name=k", "commit", "-q", "--allow-empty", "-m", "x")
    return r


def test_checkout_between_two_remembers_records_each_branch(
    rg: Recollect, scope_id: str, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    first = rg.remember("Written on main", scope_id=scope_id, owner_id="kai")
    _git(repo, "checkout", "-q", "-b", "feature/x")
    second = rg.remember("Written on the feature branch", scope_id=scope_id, owner_id="kai")
    assert rg.get(first.id, scope_id=scope_id).context_hints["branch"] == "main"
    assert rg.get(second.id, scope_id=scope_id).context_hints["branch"] == "feature/x"


def test_a_linked_worktree_records_its_own_branch(
    rg: Recollect, scope_id: str, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wt = repo.parent / "wt"
    _git(repo, "worktree", "add", "-q", "-b", "side", str(wt))
    (wt / "sub").mkdir()
    monkeypatch.chdir(wt / "sub")
    e = rg.remember("Written in a worktree", scope_id=scope_id, owner_id="kai")
    hints = rg.get(e.id, scope_id=scope_id).context_hints
    assert hints["branch"] == "side"
    _git(wt, "checkout", "-q", "--detach")
    e2 = rg.remember("Written on a detached head", scope_id=scope_id, owner_id="kai")
    assert "branch" not in rg.get(e2.id, scope_id=scope_id).context_hints
