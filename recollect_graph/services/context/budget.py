"""Fitting cited items into a token budget: the counter, the items, the pack and the packer.

:mod:`recollect_graph.services.context.builder` gathers the candidate items of a query; this module
renders them as Markdown sections with citation keys and fills the budget (never over it: see
:meth:`Packer.fit`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

SECTIONS = ("entries", "chunks", "entities", "relations", "related")
HEADINGS = {
    "entries": "## Entries",
    "chunks": "## Chunks",
    "entities": "## Entities",
    "relations": "## Relations",
    "related": "## Related",
}
KEY_PREFIX = {"entries": "E", "chunks": "C", "entities": "N", "relations": "L", "related": "R"}
#: Share of the budget the first pass gives to entries and chunks.
PRIMARY_SHARE = 0.7
#: A body is truncated only when at least this many of its tokens fit.
MIN_BODY_TOKENS = 8
MARKER = " […]"
#: Entries and chunks that match no query word and are less similar than this are not relevant.
MIN_SEMANTIC = 0.2


class TokenCounter:
    """Counts tokens of text with a Hugging Face tokenizer (no special tokens added).

    Args:
        tokenizer: A ``transformers`` tokenizer (``embedder.tokenizer``), or any object with
            ``encode(text, add_special_tokens=False)``.
        name: How the pack reports the tokenizer.
    """

    def __init__(self, tokenizer: Any, name: str | None = None) -> None:
        self.tokenizer = tokenizer
        self.name = name or str(getattr(tokenizer, "name_or_path", "") or type(tokenizer).__name__)

    @classmethod
    def named(cls, name: str) -> TokenCounter:
        """Load a named tokenizer (``transformers.AutoTokenizer``; offline if so configured)."""
        from transformers import AutoTokenizer

        return cls(AutoTokenizer.from_pretrained(name), name)

    def count(self, text: str) -> int:
        """Tokens in ``text``."""
        return len(self.tokenizer.encode(text, add_special_tokens=False)) if text else 0

    def truncate(self, text: str, max_tokens: int) -> str:
        """The longest prefix of ``text`` cut at a token boundary with at most ``max_tokens``."""
        if max_tokens <= 0:
            return ""
        if self.count(text) <= max_tokens:
            return text
        if getattr(self.tokenizer, "is_fast", False):
            enc = self.tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)
            cut = text[: int(enc["offset_mapping"][max_tokens - 1][1])]
            while cut and self.count(cut) > max_tokens:  # a re-split at the cut (rare)
                cut = cut[:-1]
            return cut.rstrip()
        lo, hi = 0, len(text)  # slow tokenizers: longest character prefix that fits
        while lo < hi:
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if self.count(text[:mid]) <= max_tokens else (lo, mid - 1)
        return text[:lo].rstrip()


@dataclass
class Item:
    """One candidate line of a pack: ``render(key, keys)`` gives its Markdown."""

    section: str
    id: str
    relevance: float
    prefix: Callable[[str, dict[str, str], bool], str]
    body: str = ""
    truncated: bool = False
    citation: dict[str, Any] = field(default_factory=dict)

    def render(self, key: str, keys: dict[str, str], ids: bool = True) -> str:
        """The item's line with its citation key (and the item's id when ``ids``)."""
        head = self.prefix(key, keys, ids)
        return f"{head}: {self.body}" if self.body else head


@dataclass(frozen=True)
class Pack:
    """A built context pack.

    Attributes:
        query: What the pack answers.
        scope_id: The scope it was built from.
        budget: The token budget.
        markdown: The pack (sections Entries, Chunks, Entities, Relations, Related; empty
            sections are omitted).
        tokens: Tokens of ``markdown`` by ``tokenizer`` (always <= ``budget``).
        tokenizer: The tokenizer that counted.
        citations: One record per cited item: key ([E1], [C2]...), kind, id and what names it.
        cut: Per section: candidates, included, truncated and left-out ids; and notes.
    """

    query: str
    scope_id: str
    budget: int
    markdown: str
    tokens: int
    tokenizer: str
    citations: list[dict[str, Any]]
    cut: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for ``--json``)."""
        return asdict(self)


class Packer:
    """Fills a budget with items by relevance (no database: unit-testable).

    Args:
        counter: Counts tokens.
        ids: Write each item's id next to its key (else only ``citations`` carry ids).
    """

    def __init__(self, counter: TokenCounter, *, ids: bool = True) -> None:
        self.counter = counter
        self.ids = ids
        self._cache: dict[str, int] = {}
        self._nl = counter.count("\n")

    def render(self, chosen: Sequence[Item]) -> str:
        """The Markdown of the chosen items, sections in fixed order, keys by position."""
        keys = self._keys(chosen)
        lines: list[str] = []
        for sec in SECTIONS:
            items = [it for it in chosen if it.section == sec]
            if items:
                lines.append(HEADINGS[sec])
                lines.extend(
                    it.render(keys[it.section + ":" + it.id], keys, self.ids) for it in items
                )
        return "\n".join(lines)

    @staticmethod
    def _keys(chosen: Sequence[Item]) -> dict[str, str]:
        keys: dict[str, str] = {}
        seen = dict.fromkeys(SECTIONS, 0)
        for it in chosen:
            seen[it.section] += 1
            keys[it.section + ":" + it.id] = f"{KEY_PREFIX[it.section]}{seen[it.section]}"
        for it in chosen:  # plain ids too, so other sections can cite an item by its id
            keys.setdefault(it.id, keys[it.section + ":" + it.id])
        return keys

    def cost(self, chosen: Sequence[Item]) -> int:
        """Tokens of ``render(chosen)`` as the sum of its lines (lines counted once, cached).

        Exact for tokenizers that do not merge across newlines; ``fit`` checks the whole text.
        """
        text = self.render(chosen)
        lines = text.split("\n") if text else []
        total = self._nl * max(0, len(lines) - 1)
        for line in lines:
            n = self._cache.get(line)
            if n is None:
                n = self._cache[line] = self.counter.count(line)
            total += n
        return total

    def try_add(self, item: Item, chosen: list[Item], limit: int, trunc: bool) -> bool:
        """Add ``item`` whole (or truncated when ``trunc``) if the pack stays within ``limit``."""
        cost = self.cost([*chosen, item])
        if cost <= limit:
            chosen.append(item)
            return True
        if not trunc or not item.body:
            return False
        room = limit - (cost - self.counter.count(item.body)) - self.counter.count(MARKER)
        while room >= MIN_BODY_TOKENS:
            short = replace(
                item, body=self.counter.truncate(item.body, room) + MARKER, truncated=True
            )
            cost = self.cost([*chosen, short])
            if cost <= limit:
                chosen.append(short)
                return True
            room -= cost - limit  # a tokenizer that merges across the cut: shorten
        return False

    def fill(
        self,
        primary: Sequence[Item],
        more: Callable[[list[Item]], dict[str, list[Item]]],
        budget: int,
    ) -> tuple[list[Item], str, int]:
        """Fill ``budget`` in the three passes of the module docstring.

        Args:
            primary: Entries and chunks, most relevant first.
            more: Given the primary items chosen, the secondary candidates by section
                (``entities``, ``relations``, ``related``), most relevant first.
            budget: The hard limit.

        Returns:
            The chosen items, their Markdown and its exact token count (<= ``budget``).
        """
        chosen: list[Item] = []
        pending: list[Item] = []
        share = max(1, int(budget * PRIMARY_SHARE))
        for it in primary:
            if not self.try_add(it, chosen, share, trunc=False):
                pending.append(it)
        secondary = more(list(chosen) or list(primary[:3]))
        # nothing fitted whole: keep the primary share for the best item, truncated in pass 3
        top = budget - share if pending and not chosen else budget
        for i, sec in enumerate(("entities", "relations", "related")):
            used = self.cost(chosen)
            limit = used + max(0, top - used) // (3 - i)
            for it in secondary.get(sec, []):
                if not self.try_add(it, chosen, limit, trunc=False):
                    pending.append(it)
        for it in pending:  # whatever still fits, primary first
            self.try_add(it, chosen, budget, trunc=True)
        md, tokens = self.fit(chosen, budget)
        return chosen, md, tokens

    def fit(self, chosen: list[Item], budget: int) -> tuple[str, int]:
        """The exact Markdown and its count, dropping last-added items until within budget."""
        while True:
            md = self.render(chosen)
            n = self.counter.count(md)
            if n <= budget or not chosen:
                return md, n
            chosen.pop()
