"""The demo's project loader: one item per Markdown section, titles unique within a file."""

from __future__ import annotations

from pathlib import Path

from recollect_graph.services.documents.project_loader import markdown_sections


def test_repeated_headings_get_distinct_titles_and_source_ids(tmp_path: Path) -> None:
    body = "Some text that is long enough to be kept as a section of its own."
    (tmp_path / "b.md").write_text(
        f"# Bench\n\n## Results\n\n{body}\n\n## Other\n\n{body}\n\n### Results\n\n{body}\n"
    )
    items = list(markdown_sections(tmp_path / "b.md", tmp_path))
    titles = [i["title"] for i in items]
    assert titles == ["b.md: Results", "b.md: Other", "b.md: Results (2)"]
    assert len({i["source_id"] for i in items}) == 3


def test_short_sections_and_fenced_headings_are_skipped(tmp_path: Path) -> None:
    (tmp_path / "c.md").write_text(
        "# T\n\nshort\n\n## Code\n\n```\n# not a heading\nmake all and more text here\n```\n"
    )
    items = list(markdown_sections(tmp_path / "c.md", tmp_path))
    assert [i["title"] for i in items] == ["c.md: Code"]
