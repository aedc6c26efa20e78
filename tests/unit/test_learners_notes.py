"""The notes learner: front matter, sections, drafts, revisions when a note changes."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from recollect_graph.learners import Extract, Skip
from recollect_graph.learners.base import LearnerError
from recollect_graph.learners.notes import NotesLearner, front_matter, sections

LONG = "\n\n".join(f"Paragraph {i} about deploying the shop safely. " * 6 for i in range(4))
DEPLOY = f"""---
title: Deploying the shop
tags: [ops, deploy]
date: 2024-02-10
pinned: true
type: decision
---
Intro: we deploy from main only.

## Rollback

Run `make rollback` and check the dashboards.
{LONG}

## Database migrations

```
## not a heading inside a fence
```
Migrations run before the new pods start.
{LONG}

## Empty

"""


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    d = tmp_path / "notes"
    (d / "ops").mkdir(parents=True)
    (d / "ops" / "deploy.md").write_text(DEPLOY)
    (d / "ideas.md").write_text("# Ideas\n\nA dark mode for the admin pages.\n")
    (d / "draft.md").write_text("---\ndraft: true\n---\nNot ready.\n")
    (d / ".obsidian").mkdir()
    (d / ".obsidian" / "workspace.md").write_text("editor state\n")
    return d


def test_front_matter_parsing() -> None:
    meta, body = front_matter("---\ntitle: A\ntags:\n  - x\n  - y\nn: 3\nok: yes\n---\nbody\n")
    assert meta == {"title": "A", "tags": ["x", "y"], "n": 3, "ok": True}
    assert body.strip() == "body"
    assert front_matter("no front matter") == ({}, "no front matter")


def test_sections_ignore_headings_in_code_fences() -> None:
    parts = sections("intro\n## A\ntext\n```\n## code\n```\n# B\nmore")
    assert [h for h, _ in parts] == [None, "A", "B"]
    assert "## code" in parts[1][1]


def test_long_notes_split_into_sections_short_ones_stay_whole(notes: Path) -> None:
    learner = NotesLearner(notes)
    events = {e.key: e for e in learner.fetch_since(None, "s")}
    assert set(events) == {
        "ops/deploy.md#intro", "ops/deploy.md#rollback", "ops/deploy.md#database-migrations",
        "ops/deploy.md#empty", "ideas.md", "draft.md",
    }  # fmt: skip
    rollback = learner.extract(events["ops/deploy.md#rollback"])
    assert isinstance(rollback, Extract)
    assert rollback.content.startswith("Deploying the shop - Rollback\n\nRun `make rollback`")
    assert rollback.entry_type == "decision" and rollback.pinned
    assert set(rollback.tags) == {"notes", "ops", "deploy", "folder:ops"}
    assert rollback.valid_from == datetime(2024, 2, 10, tzinfo=UTC)
    assert rollback.source_id == "ops/deploy.md#rollback" and rollback.revision
    ideas = learner.extract(events["ideas.md"])
    assert isinstance(ideas, Extract) and ideas.content.startswith("Ideas\n\n")
    assert learner.extract(events["ops/deploy.md#empty"]) == Skip("empty section")
    assert learner.extract(events["draft.md"]) == Skip("draft or excluded by front matter")


def test_a_changed_section_gets_a_new_revision_the_others_keep_theirs(notes: Path) -> None:
    learner = NotesLearner(notes)

    def revisions() -> dict[str, str | None]:
        out = {}
        for e in learner.fetch_since(None, "s"):
            x = learner.extract(e)
            if isinstance(x, Extract):
                out[e.key] = x.revision
        return out

    before = revisions()
    f = notes / "ops" / "deploy.md"
    f.write_text(DEPLOY.replace("check the dashboards", "check the error rate"))
    after = revisions()
    assert after["ops/deploy.md#rollback"] != before["ops/deploy.md#rollback"]
    assert after["ops/deploy.md#intro"] == before["ops/deploy.md#intro"]
    assert after["ideas.md"] == before["ideas.md"]


def test_since_uses_modification_times(notes: Path) -> None:
    old = datetime(2024, 1, 1, tzinfo=UTC).timestamp()
    for f in notes.rglob("*.md"):
        os.utime(f, (old, old))
    (notes / "ideas.md").write_text("# Ideas\n\nA CLI for refunds.\n")
    learner = NotesLearner(notes)
    assert [e.key for e in learner.fetch_since(datetime(2024, 6, 1, tzinfo=UTC), "s")] == [
        "ideas.md"
    ]


def test_not_a_folder(tmp_path: Path) -> None:
    with pytest.raises(LearnerError, match="is not a directory"):
        NotesLearner(tmp_path / "missing")
