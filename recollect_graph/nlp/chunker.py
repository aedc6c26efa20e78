"""Markdown-aware chunking measured in the embedding model's tokens.

Upstream (Recollect's ``Chunker``) counted 4 characters per token, never split an oversize
paragraph, let chunks cross headings and computed approximate offsets. Here:

- the text is split into blocks (paragraphs, list runs, fenced code blocks kept whole where they
  fit) under a heading path (``"Guide > Install > Linux"``): a chunk never crosses a heading, and
  its ``heading`` is the path it sits under (embedded with the text as context);
- blocks are merged greedily up to ``target`` tokens, counted with a real tokenizer;
- a block over the hard limit is split at sentence ends, and a sentence still over it at token
  boundaries (offsets from the tokenizer), so no chunk exceeds ``max_tokens`` (the model's input
  limit minus its special tokens and the heading);
- consecutive chunks of one section overlap by whole trailing sentences of up to ``overlap``
  tokens;
- every chunk's text is exactly ``content[start:end]``.

The tokenizer is passed in as a function, so this module is pure (and unit-tested without the
model).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: ``count(text) -> tokens`` and ``offsets(text) -> [(start, end)] per token``.
CountFn = Callable[[str], int]
OffsetsFn = Callable[[str], Sequence[tuple[int, int]]]

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_SENTENCE_END = re.compile(r"(?<=[.!?:;])[\"')\]]*\s+|\n")
#: Tokens of heading context at most (the rest of the path is dropped from the front).
MAX_HEADING_TOKENS = 32


@dataclass(frozen=True)
class TextChunk:
    """One chunk: ``text == content[start:end]``; ``heading`` is its section's heading path."""

    seq: int
    text: str
    heading: str
    start: int
    end: int
    token_count: int

    @property
    def content_hash(self) -> str:
        """SHA-256 of heading and text: what decides whether a chunk must be re-embedded."""
        return hashlib.sha256(f"{self.heading}\x1f{self.text}".encode()).hexdigest()

    def embed_text(self) -> str:
        """What is embedded: the heading path as context, then the text."""
        return chunk_embed_text(self.heading, self.text)


def chunk_embed_text(heading: str | None, text: str) -> str:
    """What is embedded for a chunk: its heading path as context, then its text."""
    return f"{heading}\n{text}" if heading else text


@dataclass(frozen=True)
class _Block:
    start: int
    end: int
    heading: str
    is_heading: bool


def _blocks(text: str) -> list[_Block]:
    """Paragraph blocks (blank-line separated; fenced code kept together) with heading paths."""
    out: list[_Block] = []
    path: list[tuple[int, str]] = []
    pos = 0
    cur_start: int | None = None
    cur_end = 0
    in_fence = False

    def close() -> None:
        nonlocal cur_start
        if cur_start is not None:
            out.append(_Block(cur_start, cur_end, _path(path), False))
            cur_start = None

    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        start, end = pos, pos + len(body)
        pos += len(line)
        if _FENCE.match(body):
            in_fence = not in_fence
        elif not in_fence:
            m = _HEADING.match(body)
            if m:
                close()
                level = len(m.group(1))
                while path and path[-1][0] >= level:
                    path.pop()
                path.append((level, m.group(2).strip()))
                out.append(_Block(start, end, _path(path), True))
                continue
            if not body.strip():
                close()
                continue
        if cur_start is None:
            lead = len(body) - len(body.lstrip())
            cur_start = start + lead if body.strip() else start
        if body.strip():
            cur_end = start + len(body.rstrip())
    close()
    return out


def _path(path: list[tuple[int, str]]) -> str:
    return " > ".join(h for _, h in path)


def _sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Sentence spans (trimmed) inside ``text[start:end]``."""
    spans: list[tuple[int, int]] = []
    s = start
    for m in _SENTENCE_END.finditer(text, start, end):
        if m.start() > s:
            spans.append((s, m.start()))
        s = m.end()
    if s < end:
        spans.append((s, end))
    return [(a, b) for a, b in ((a, a + len(text[a:b].rstrip())) for a, b in spans) if b > a]


class Chunker:
    """Splits text into token-bounded chunks.

    Args:
        count: Tokens in a text (without special tokens).
        offsets: Character spans of a text's tokens (to cut a sentence at token boundaries).
        target: Tokens a chunk aims for.
        overlap: Tokens of trailing sentences repeated at the start of the next chunk of a section.
        max_tokens: Hard limit of a chunk's text plus heading (the model's input limit minus its
            special tokens).
    """

    def __init__(
        self,
        count: CountFn,
        offsets: OffsetsFn,
        *,
        target: int = 200,
        overlap: int = 32,
        max_tokens: int = 254,
    ) -> None:
        if not 0 <= overlap < target <= max_tokens:
            raise ValueError("chunking needs 0 <= overlap < target <= max_tokens")
        self.count = count
        self.offsets = offsets
        self.target = target
        self.overlap = overlap
        self.max_tokens = max_tokens

    def chunk(self, content: str) -> list[TextChunk]:
        """The chunks of ``content``, in order (``seq`` 0..n-1)."""
        sections: list[list[_Block]] = []
        for b in _blocks(content):
            if b.is_heading or not sections:
                sections.append([b])
            else:
                sections[-1].append(b)
        spans = [span for section in sections for span in self._section(content, section)]
        out = []
        for seq, (a, z, heading) in enumerate(spans):
            text = content[a:z]
            out.append(TextChunk(seq, text, heading, a, z, self.count(text)))
        return out

    def _heading(self, heading: str) -> str:
        while heading and self.count(heading) > MAX_HEADING_TOKENS:
            parts = heading.split(" > ")
            heading = " > ".join(parts[1:]) if len(parts) > 1 else heading[: len(heading) // 2]
        return heading

    def _section(self, content: str, blocks: list[_Block]) -> list[tuple[int, int, str]]:
        heading = self._heading(blocks[-1].heading)
        limit = max(8, self.max_tokens - (self.count(heading) + 1 if heading else 0))
        target = min(self.target, limit)
        units: list[tuple[int, int, int]] = []  # start, end, tokens
        for b in blocks:
            units.extend(self._units(content, b.start, b.end, limit))
        out: list[tuple[int, int, str]] = []
        cur: list[tuple[int, int, int]] = []
        for u in units:
            if cur and self._span_tokens(content, cur[0][0], u[1]) > target:
                out.append((cur[0][0], cur[-1][1], heading))
                cur = self._overlap(content, cur, u, limit)
            cur.append(u)
        if cur:
            out.append((cur[0][0], cur[-1][1], heading))
        return out

    def _span_tokens(self, content: str, a: int, z: int) -> int:
        return self.count(content[a:z])

    def _overlap(
        self,
        content: str,
        prev: list[tuple[int, int, int]],
        nxt: tuple[int, int, int],
        limit: int,
    ) -> list[tuple[int, int, int]]:
        """Trailing sentences of the previous chunk that start the next one (within budget)."""
        if not self.overlap:
            return []
        tail: list[tuple[int, int, int]] = []
        sents = [s for u in prev for s in self._units(content, u[0], u[1], limit)]
        used = 0
        for s in reversed(sents):
            if used + s[2] > self.overlap:
                break
            tail.insert(0, s)
            used += s[2]
        if len(tail) == len(sents):
            return []  # the whole previous chunk: no overlap rather than a repeat
        if tail and self._span_tokens(content, tail[0][0], nxt[1]) > limit:
            return []
        return tail

    def _units(self, content: str, start: int, end: int, limit: int) -> list[tuple[int, int, int]]:
        """The block as one unit, or split into sentences/token runs each within ``limit``."""
        n = self._span_tokens(content, start, end)
        if n <= self.target:
            return [(start, end, n)]
        out: list[tuple[int, int, int]] = []
        for a, z in _sentences(content, start, end):
            m = self._span_tokens(content, a, z)
            if m <= limit:
                out.append((a, z, m))
            else:
                out.extend(self._token_runs(content, a, z, limit))
        return out

    def _token_runs(
        self, content: str, start: int, end: int, limit: int
    ) -> list[tuple[int, int, int]]:
        """Cut ``content[start:end]`` at token boundaries into runs of at most ``limit`` tokens."""
        offs = list(self.offsets(content[start:end]))
        out: list[tuple[int, int, int]] = []
        step = max(1, limit - 2)  # re-tokenising a slice can merge/split a token at its edges
        for i in range(0, len(offs), step):
            piece = offs[i : i + step]
            a, z = start + piece[0][0], start + piece[-1][1]
            while z > a and self._span_tokens(content, a, z) > limit:
                z = start + piece[len(piece) // 2][1] if len(piece) > 1 else z - 1
                piece = piece[: max(1, len(piece) // 2)]
            out.append((a, z, self._span_tokens(content, a, z)))
        return [u for u in out if u[1] > u[0]]


def hf_chunker(
    tokenizer: object, *, model_max: int, target: int = 200, overlap: int = 32
) -> Chunker:
    """A :class:`Chunker` counting with a Hugging Face tokenizer (the embedding model's)."""

    def count(text: str) -> int:
        return len(tokenizer(text, add_special_tokens=False)["input_ids"])  # type: ignore[operator]

    def offsets(text: str) -> Sequence[tuple[int, int]]:
        enc = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)  # type: ignore[operator]
        return [tuple(o) for o in enc["offset_mapping"]]

    max_tokens = model_max - 2  # [CLS] and [SEP]
    return Chunker(
        count, offsets, target=min(target, max_tokens), overlap=overlap, max_tokens=max_tokens
    )
