"""Chunking: exact offsets, headings as context, hard token limit, overlap, real tokenizer."""

from __future__ import annotations

import itertools
import re

import pytest

from recollect_graph.nlp.chunker import Chunker, TextChunk, hf_chunker


def _words(text: str) -> int:
    return len(text.split())


def _word_offsets(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]


def word_chunker(**kw: int) -> Chunker:
    return Chunker(_words, _word_offsets, **kw)


DOC = (
    """# Guide

Intro paragraph one. It has two sentences.

## Install

Step one: download the thing. Step two: run it.

```
# not a heading inside code
make install
```

## Use

"""
    + " ".join(f"Sentence number {i} is here." for i in range(60))
    + "\n"
)


def _check_exact(content: str, chunks: list[TextChunk]) -> None:
    for c in chunks:
        assert content[c.start : c.end] == c.text
    assert [c.seq for c in chunks] == list(range(len(chunks)))


def test_offsets_exact_and_headings_are_context() -> None:
    chunks = word_chunker(target=40, overlap=8, max_tokens=60).chunk(DOC)
    _check_exact(DOC, chunks)
    headings = [c.heading for c in chunks]
    assert headings[0] == "Guide"
    assert "Guide > Install" in headings and "Guide > Use" in headings
    # the "# not a heading" inside the fence is code, not a section
    assert not any("not a heading" in h for h in headings)
    install = [c for c in chunks if c.heading == "Guide > Install"]
    assert any("make install" in c.text for c in install)


def test_no_chunk_over_the_limit_and_oversize_paragraphs_split() -> None:
    long_para = "word " * 500
    content = f"# T\n\n{long_para}\n\nShort end."
    chunker = word_chunker(target=50, overlap=10, max_tokens=64)
    chunks = chunker.chunk(content)
    _check_exact(content, chunks)
    assert len(chunks) > 8
    for c in chunks:
        assert c.token_count + _words(c.heading) + 1 <= 64


def test_chunks_overlap_within_a_section_by_whole_sentences() -> None:
    chunks = word_chunker(target=40, overlap=12, max_tokens=60).chunk(DOC)
    use = [c for c in chunks if c.heading == "Guide > Use"]
    assert len(use) >= 3
    for a, b in itertools.pairwise(use):
        assert b.start < a.end  # overlap
        assert a.text.endswith(".")
        assert content_sentence(b.text).endswith(".")


def content_sentence(text: str) -> str:
    return text.split(".")[0] + "."


def test_chunks_never_cross_headings() -> None:
    chunks = word_chunker(target=200, overlap=0, max_tokens=250).chunk(DOC)
    for c in chunks:
        assert c.text.count("\n## ") == 0 or c.text.startswith("## ")


def test_same_text_same_hash_and_heading_changes_hash() -> None:
    a = TextChunk(0, "x", "H", 0, 1, 1)
    assert a.content_hash == TextChunk(3, "x", "H", 9, 10, 1).content_hash
    assert a.content_hash != TextChunk(0, "x", "Other", 0, 1, 1).content_hash


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        word_chunker(target=10, overlap=10, max_tokens=20)
    with pytest.raises(ValueError):
        word_chunker(target=30, overlap=5, max_tokens=20)


def test_real_tokenizer_keeps_every_chunk_within_the_model_limit() -> None:
    from recollect_graph.nlp.embedder import Embedder

    emb = Embedder()
    chunker = hf_chunker(emb.tokenizer, model_max=emb.max_tokens, target=200, overlap=32)
    content = DOC + "\n\n" + ("supercalifragilistic" * 300) + "\n\n" + "Ünïcödé ✓ text. " * 200
    chunks = chunker.chunk(content)
    _check_exact(content, chunks)
    tok = emb.tokenizer
    for c in chunks:
        n = len(tok(c.embed_text())["input_ids"])  # with [CLS]/[SEP]
        assert n <= emb.max_tokens, (n, c.heading, c.text[:80])
