"""Entry captions: the title, else the first line of content, as plain text."""

from __future__ import annotations

import pytest

from recollect_graph.captions import MAX_CAPTION, caption
from recollect_graph.vocabulary import (
    ALL_LABELS,
    ENTRY_TYPE_LABELS,
    ENTRY_TYPES,
    TYPE_LABELS,
)


@pytest.mark.parametrize(
    ("content", "title", "expected"),
    [
        ("# The **store** is [Neo4j](https://neo4j.com)\n\nmore", None, "The store is Neo4j"),
        ("anything", "Use *vite*", "Use vite"),
        ("\n\n- [ ] *todo*: run `make test` <b>now</b>", None, "todo: run make test now"),
        ("snake_case_name stays", None, "snake_case_name stays"),
        ("---\n## Heading ##\nbody", None, "Heading"),
        ("```python\n> quoted _emph_ text", None, "quoted emph text"),
        ("![logo](a.png) The caption", None, "The caption"),
        ("1. first step\n2. second", "", "first step"),
        ("", None, ""),
    ],
)
def test_caption(content: str, title: str | None, expected: str) -> None:
    assert caption(content, title) == expected


def test_a_long_caption_is_cut_at_a_word() -> None:
    text = "word " * 40
    out = caption(text)
    assert len(out) <= MAX_CAPTION and out.endswith("…") and not out[:-1].endswith(" ")
    assert out[:-1].split() == ["word"] * len(out[:-1].split())


def test_every_entry_type_but_a_turn_has_its_own_label() -> None:
    assert set(ENTRY_TYPE_LABELS) == set(ENTRY_TYPES) - {"conversation_turn"}
    assert len(TYPE_LABELS) == len(ENTRY_TYPE_LABELS)
    # a type label is never a key or schema label: no constraint, export branch or index needed
    assert TYPE_LABELS.isdisjoint(ALL_LABELS)
    assert {"Commit", "Decision", "Problem", "Section"} <= TYPE_LABELS
