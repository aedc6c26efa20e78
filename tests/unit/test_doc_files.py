"""Reading files for ingest: which files, titles, HTML to text."""

from __future__ import annotations

from pathlib import Path

from recollect_graph.services.documents import files as doc_files

SAMPLE = Path(__file__).parents[1] / "data" / "docs_sample"


def test_find_skips_hidden_folders_and_unsupported_files() -> None:
    names = [p.name for p in doc_files.find(SAMPLE)]
    assert names == ["billing.md", "intro.html", "notes.txt", "search.md"]


def test_markdown_title_is_the_first_heading() -> None:
    doc = doc_files.read(SAMPLE / "billing.md")
    assert doc.title == "Billing service" and doc.format == "markdown"


def test_html_becomes_text_with_headings_and_no_script() -> None:
    doc = doc_files.read(SAMPLE / "intro.html")
    assert doc.title == "Platform overview"
    assert "# Platform" in doc.text and "## Teams" in doc.text
    assert "secret" not in doc.text and "color:red" not in doc.text
    assert "- Alice owns billing." in doc.text
    assert "billing service and a search service" in doc.text


def test_text_title_is_the_first_line() -> None:
    assert doc_files.read(SAMPLE / "notes.txt").title == "Release notes"
