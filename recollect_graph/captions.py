"""An entry's ``caption``: what Neo4j Browser and the graph views show on its node.

The caption is the entry's title when it has one, else the first non-empty line of its content,
as plain text: Markdown headings, list and quote markers, emphasis, code ticks, images, link
targets and HTML tags are removed, and it is cut to :data:`MAX_CAPTION` characters.

Example:
    >>> caption("# The **store** is [Neo4j](https://neo4j.com)\\n\\nmore")
    'The store is Neo4j'
    >>> caption("ignored", title="Use vite")
    'Use vite'
"""

from __future__ import annotations

import re

#: The longest caption; a longer one is cut at a word boundary and ends with an ellipsis.
MAX_CAPTION = 80

_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_REF_LINK = re.compile(r"\[([^\]]+)\]\[[^\]]*\]")
_HTML = re.compile(r"<[^>]+>")
_LEAD = re.compile(r"^\s*(?:#{1,6}\s+|>\s*|[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+)+")
_EMPHASIS = re.compile(r"(\*\*|__|~~)(.+?)\1|(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
_UNDERSCORE = re.compile(r"(?<![\w])_(?!\s)(.+?)(?<!\s)_(?![\w])")
_CODE = re.compile(r"`+([^`]*)`+")
_RULE = re.compile(r"^\s*(?:[-*_=~]\s*){3,}$|^\s*(?:```|~~~)")


def plain(line: str) -> str:
    """One line of Markdown as plain text (markers, emphasis, links and tags removed)."""
    s = _HTML.sub("", line)
    s = _IMAGE.sub("", s)
    s = _LINK.sub(r"\1", s)
    s = _REF_LINK.sub(r"\1", s)
    s = _LEAD.sub("", s)
    s = _CODE.sub(r"\1", s)
    for _ in range(2):  # nested emphasis (***both***)
        s = _EMPHASIS.sub(lambda m: m.group(2) or m.group(3) or "", s)
        s = _UNDERSCORE.sub(r"\1", s)
    s = re.sub(r"\s+#+\s*$", "", s)  # closing hashes of an ATX heading
    return re.sub(r"\s+", " ", s).strip()


def caption(content: str | None, title: str | None = None, *, limit: int = MAX_CAPTION) -> str:
    """The caption of an entry with this content and title ("" when both are empty).

    Args:
        content: The entry's content (Markdown or plain text).
        title: Its title, if any; it wins when it has any text.
        limit: The longest caption.
    """
    text = plain(title or "")
    if not text:
        for line in (content or "").splitlines():
            if _RULE.match(line):
                continue
            text = plain(line)
            if text:
                break
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,.;:-") + "…"
