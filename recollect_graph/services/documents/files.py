"""Reading files for ingest: Markdown and text as they are, HTML reduced to text.

HTML goes through the standard library's parser: script, style and other invisible elements are
dropped, block elements end lines, ``h1``-``h6`` become Markdown headings (so the chunker keeps
them as context) and the ``<title>`` (else the first heading) is the document title.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from recollect_graph.services.kernel.validation import MAX_FILE_BYTES, file_text

MARKDOWN = (".md", ".markdown", ".mdx")
TEXT = (".txt", ".text", ".rst")
HTML = (".html", ".htm", ".xhtml")
SUFFIXES = MARKDOWN + TEXT + HTML
__all__ = ["MAX_FILE_BYTES", "FileDoc", "find", "html_to_text", "read"]
_SKIP_DIRS = {".git", "node_modules", "__pycache__", ".venv", "venv", ".tox", "site-packages"}


@dataclass(frozen=True)
class FileDoc:
    """A file read for ingest."""

    title: str
    text: str
    format: str
    size: int


def find(root: Path, *, recursive: bool = True) -> list[Path]:
    """The ingestible files at ``root`` (a file or folder), sorted; hidden and vendored skipped."""
    if root.is_file():
        return [root] if root.suffix.lower() in SUFFIXES else []
    pattern = root.rglob("*") if recursive else root.glob("*")
    out = []
    for p in pattern:
        rel = p.relative_to(root).parts
        if any(part.startswith(".") or part in _SKIP_DIRS for part in rel[:-1]):
            continue
        if p.is_file() and p.suffix.lower() in SUFFIXES and not p.name.startswith("."):
            out.append(p)
    return sorted(out)


def read(path: Path) -> FileDoc:
    """Read one file (UTF-8; a few invalid bytes replaced).

    Raises:
        ValueError: The file is too large or not a supported kind.
        InvalidInput: It is not text (a NUL byte, or mostly not UTF-8).
    """
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise ValueError(f"larger than {MAX_FILE_BYTES} bytes")
    raw = file_text(path.read_bytes(), "the file")
    suffix = path.suffix.lower()
    if suffix in HTML:
        title, text = html_to_text(raw)
        return FileDoc(title or path.stem, text, "html", size)
    if suffix in MARKDOWN:
        m = re.search(r"^#[ \t]+(.+?)[ \t#]*$", raw, re.MULTILINE)
        return FileDoc(m.group(1).strip() if m else path.stem, raw, "markdown", size)
    if suffix in TEXT:
        first = next((ln.strip() for ln in raw.splitlines() if ln.strip()), "")
        title = first if 0 < len(first) <= 120 else path.stem
        return FileDoc(title, raw, "text", size)
    raise ValueError(f"unsupported file type {suffix!r}")


_BLOCK = {
    "p", "div", "section", "article", "header", "footer", "ul", "ol", "table", "tr",
    "br", "pre", "blockquote", "dt", "dd", "main", "nav", "aside", "figure", "hr",
}  # fmt: skip
_HIDDEN = {"script", "style", "noscript", "template", "svg", "head"}


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title = ""
        self.first_heading = ""
        self._hidden = 0
        self._in_title = False
        self._heading: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self._hidden += 1
        if tag == "title":
            self._in_title = True
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.parts.append("\n\n" + "#" * int(tag[1]) + " ")
            self._heading = ""
        elif tag in _BLOCK:
            self.parts.append("\n\n" if tag in ("p", "div", "section", "article", "pre") else "\n")
        elif tag == "li":
            self.parts.append("\n- ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN and self._hidden:
            self._hidden -= 1
        if tag == "title":
            self._in_title = False
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            if self._heading and not self.first_heading:
                self.first_heading = self._heading.strip()
            self._heading = None
            self.parts.append("\n\n")
        elif tag in _BLOCK:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
            return
        if self._hidden:
            return
        if self._heading is not None:
            self._heading += data
            data = " ".join(data.split())
        self.parts.append(data)


def html_to_text(html: str) -> tuple[str, str]:
    """``(title, text)`` of an HTML page; headings as Markdown headings, paragraphs kept."""
    p = _Text()
    p.feed(html)
    p.close()
    text = "".join(p.parts)
    lines = [
        " ".join(ln.split()) if not ln.startswith("#") else ln.strip() for ln in text.split("\n")
    ]
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
    return (" ".join(p.title.split()) or p.first_heading), text + "\n"
