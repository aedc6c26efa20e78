"""Entries carry a plain-text caption and their entry type as a second label (for Browser)."""

from __future__ import annotations

from recollect_graph import Recollect


def _node(rg: Recollect, entry_id: str) -> dict[str, object]:
    rows = rg.query(
        "MATCH (e:Entry {id: $id}) RETURN e.caption AS caption, labels(e) AS labels",
        {"id": entry_id},
    )
    assert len(rows) == 1
    return {"caption": rows[0]["caption"], "labels": sorted(rows[0]["labels"])}


def test_caption_and_type_label_are_written_with_the_entry(rg: Recollect, scope_id: str) -> None:
    titled = rg.remember(
        "## Why\n\nWe **moved** the build to [vite](https://vitejs.dev).",
        scope_id=scope_id,
        owner_id="k",
        title="Build with vite",
        entry_type="decision",
    )
    untitled = rg.remember(
        "\n# The *cache* is stale\n\n- CI serves `old` packages",
        scope_id=scope_id,
        owner_id="k",
        entry_type="problem",
    )
    note = rg.remember("plain words", scope_id=scope_id, owner_id="k")
    assert titled.caption == "Build with vite"
    assert _node(rg, titled.id) == {"caption": "Build with vite", "labels": ["Decision", "Entry"]}
    assert _node(rg, untitled.id)["labels"] == ["Entry", "Problem"]
    assert _node(rg, untitled.id)["caption"] == "The cache is stale"
    assert _node(rg, note.id)["labels"] == ["Entry", "Note"]
    # remembering the same thing again changes nothing
    again = rg.remember("plain words", scope_id=scope_id, owner_id="k", entry_type="decision")
    assert again.id == note.id and _node(rg, note.id)["labels"] == ["Entry", "Note"]


def test_init_backfills_entries_written_before_captions(rg: Recollect, scope_id: str) -> None:
    old = rg.remember(
        "> **Commit** abc123: fix the\nlauncher",
        scope_id=scope_id,
        owner_id="k",
        entry_type="commit",
    )
    with rg.db.driver.session(database=rg.db.database) as s:  # as an older version left it
        s.run("MATCH (e:Entry {id: $id}) REMOVE e.caption, e:Commit", id=old.id).consume()
    assert _node(rg, old.id) == {"caption": None, "labels": ["Entry"]}
    rg.init_schema()
    assert _node(rg, old.id) == {"caption": "Commit abc123: fix the", "labels": ["Commit", "Entry"]}
    rg.init_schema()  # idempotent
    assert _node(rg, old.id) == {"caption": "Commit abc123: fix the", "labels": ["Commit", "Entry"]}
