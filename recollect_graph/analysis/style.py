"""The Neo4j Browser style of recollect-graph (``style.grass``), read for other views.

Browser applies every rule whose selector names one of a node's labels, in the order of the
style sheet, later rules overriding earlier ones; :meth:`BrowserStyle.node` does the same, so an
``:Entry:Decision`` node gets the ``Entry`` rule's caption and the ``Decision`` rule's colour.

Example:
    >>> style = browser_style()
    >>> style.node(["Entry", "Decision"])["color"]
    '#17A589'
    >>> style.caption(["Entry"], {"caption": "Build with vite", "content": "..."})
    'Build with vite'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

#: The style file the embedded server serves (a copy of ``cypher/browser/style.grass``).
STYLE_FILE = (
    Path(__file__).resolve().parents[1]
    / "db"
    / "launcher"
    / "src"
    / "main"
    / "resources"
    / "guides"
    / "style.grass"
)

_RULE = re.compile(r'^(node|relationship)(?:\.(\w+))?\s*\{((?:[^}"]|"[^"]*")*)\}', re.M)
_PROP = re.compile(r'([\w-]+)\s*:\s*("[^"]*"|[^;\n]+?)\s*(?:;|$)', re.M)
_FIELD = re.compile(r"\{(\w+)\}|<(id|type)>")


@dataclass(frozen=True)
class BrowserStyle:
    """Rules of a ``.grass`` style sheet, in order.

    Attributes:
        nodes: ``(label or None for every node, properties)`` in style-sheet order.
        relationships: ``(type or None for every relationship, properties)`` in order.
    """

    nodes: list[tuple[str | None, dict[str, str]]] = field(default_factory=list)
    relationships: list[tuple[str | None, dict[str, str]]] = field(default_factory=list)

    @classmethod
    def parse(cls, text: str) -> BrowserStyle:
        """Parse a style sheet's text."""
        style = cls()
        for kind, name, body in _RULE.findall(text):
            props = {k: v.strip().strip('"') for k, v in _PROP.findall(body)}
            (style.nodes if kind == "node" else style.relationships).append((name or None, props))
        return style

    def node(self, labels: Iterable[str]) -> dict[str, str]:
        """The merged style of a node with these labels (as Browser merges it)."""
        have = set(labels)
        out: dict[str, str] = {}
        for name, props in self.nodes:
            if name is None or name in have:
                out.update(props)
        return out

    def relationship(self, rel_type: str) -> dict[str, str]:
        """The merged style of a relationship of this type."""
        out: dict[str, str] = {}
        for name, props in self.relationships:
            if name is None or name == rel_type:
                out.update(props)
        return out

    def labels(self) -> list[str]:
        """Every label the sheet styles, in order."""
        return [name for name, _ in self.nodes if name]

    def caption(self, labels: Iterable[str], props: Mapping[str, Any], *, limit: int = 40) -> str:
        """A node's caption as Browser draws it: the style's template filled from ``props``."""
        labels = list(labels)
        template = self.node(labels).get("caption", "{id}")

        def fill(m: re.Match[str]) -> str:
            key = m.group(1) or m.group(2)
            if key == "type":
                return labels[0] if labels else ""
            value = props.get(key)
            return "" if value is None else str(value)

        text = " ".join(_FIELD.sub(fill, template).split())
        return text if len(text) <= limit else text[: limit - 1] + "…"

    def diameter(self, labels: Iterable[str]) -> float:
        """A node's diameter in pixels."""
        value = self.node(labels).get("diameter", "50px")
        return float(value.removesuffix("px") or 50)


@cache
def browser_style(path: Path = STYLE_FILE) -> BrowserStyle:
    """The style sheet at ``path`` (default: the one Browser gets), parsed once."""
    return BrowserStyle.parse(path.read_text(encoding="utf-8"))
