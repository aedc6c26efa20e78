"""Search kinds and the branch read from HEAD, without a database."""

from __future__ import annotations

from pathlib import Path

import pytest

from recollect_graph.errors import InvalidInput
from recollect_graph.services.kernel.validation import require_scope
from recollect_graph.services.knowledge import provenance
from recollect_graph.services.search.kinds import check_kinds, entry_kind, entry_origin


def test_kinds_are_checked_against_the_vocabulary() -> None:
    assert check_kinds(None) is None
    assert check_kinds(["entry", "turn", "chunk"]) is None  # all of them is no filter
    assert check_kinds("Chunk") == ["chunk"]
    assert check_kinds(["turn", "entry", "turn"]) == ["turn", "entry"]
    with pytest.raises(InvalidInput, match="kinds must be some of entry, turn, chunk"):
        check_kinds(["page"])
    with pytest.raises(InvalidInput):
        check_kinds([])


def test_a_turn_says_its_session() -> None:
    row = {"entry_type": "conversation_turn", "session_id": "s1", "speaker": "ana", "seq": 3}
    assert entry_kind(row) == "turn"
    assert entry_origin(row) == {"session_id": "s1", "speaker": "ana", "turn": 3}
    assert entry_kind({"entry_type": "note"}) == "entry" and entry_origin({}) == {}


def test_a_missing_scope_is_refused() -> None:
    for bad in (None, "", "   "):
        with pytest.raises(InvalidInput, match="scope_id is required"):
            require_scope(bad)
    assert require_scope(" app ") == "app"


def test_branch_is_read_from_head_each_call(tmp_path: Path) -> None:
    gd = tmp_path / "repo" / ".git"
    gd.mkdir(parents=True)
    (gd / "HEAD").write_text("ref: refs/heads/main\n")
    sub = tmp_path / "repo" / "a" / "b"
    sub.mkdir(parents=True)
    assert provenance.current_branch(str(sub)) == "main"
    (gd / "HEAD").write_text("ref: refs/heads/feature/x\n")
    assert provenance.current_branch(str(sub)) == "feature/x"
    (gd / "HEAD").write_text("0123456789abcdef0123456789abcdef01234567\n")
    assert provenance.current_branch(str(sub)) is None  # detached


def test_a_worktree_git_file_is_followed(tmp_path: Path) -> None:
    real = tmp_path / "main" / ".git" / "worktrees" / "wt"
    real.mkdir(parents=True)
    (real / "HEAD").write_text("ref: refs/heads/side\n")
    wt = tmp_path / "wt"
    wt.mkdir()
    (wt / ".git").write_text(f"gitdir: {real}\n")
    assert provenance.git_dir(str(wt)) == str(real)
    assert provenance.current_branch(str(wt)) == "side"
    assert provenance.current_branch(str(tmp_path / "nowhere")) is None
