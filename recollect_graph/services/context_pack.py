"""Context packs: the most relevant knowledge for a query, in Markdown, under a hard token budget.

``ContextPack(db, embedder, search).build(query, scope_id=..., budget_tokens=N)`` gathers

- **Entries** from the hybrid search service (vector + full-text + lifecycle; its graph
  expansion is off, so that graph neighbours land in Related instead);
- **Chunks** of documents from the ``chunk_embedding`` vector index and the ``chunk_text``
  full-text index (``cypher/context/chunks.cypher``);
- **Entities** mentioned by the chosen entries and chunks (``MENTIONS``);
- **Relations** among those entities (``Relation -SUBJECT/OBJECT->``, with their evidence);
- **Related** entries: linked by a knowledge edge (``SUPPORTS``, ``LEADS_TO``...) to chosen ones;

(entries and chunks that match no word of the query and have a cosine under ``MIN_SEMANTIC``
are not candidates) and fills the budget by relevance in three passes: entries and chunks merged
by relevance up to 70% of the budget; entities, relations and related entries, a third of what is
left each (what one section does not use passes to the next); then whatever still fits, in the
same order.

Tokens are counted with a real tokenizer: the embedding model's Hugging Face tokenizer by default,
or any tokenizer object (``TokenCounter.named("gpt2")`` loads a named one). The pack is **never**
over budget: line costs are summed while filling, then the whole Markdown is counted again and,
should a tokenizer merge tokens across lines, the last-added item is dropped until it fits.

An entry, chunk or related entry that does not fit whole may be **truncated** at a token
boundary and marked with `` […]`` (only when at least ``MIN_BODY_TOKENS`` of its text fit);
anything else that does not fit is cut. ``pack.cut`` says, per section, how many candidates there
were, which were included, truncated and left out. Text is flattened to one line per item.

Example:
    >>> pack = ContextPack(db, embedder, search).build(  # doctest: +SKIP
    ...     "why did we pick Vite?", scope_id="app", budget_tokens=800)
    >>> pack.tokens <= 800  # doctest: +SKIP
    True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from recollect_graph.db.client import Db
from recollect_graph.nlp.embedder import Embedder
from recollect_graph.services.records import in_range, now_utc, require_text
from recollect_graph.services.search import Search, lucene_query

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
_WS = re.compile(r"\s+")


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


class ContextPack:
    """Builds context packs from the entries, chunks, entities and relations of a scope.

    Args:
        db: The database client.
        embedder: Embeds the query; its tokenizer counts tokens unless ``counter`` is given.
        search: The entry search service.
        counter: Token counter (default: the embedding model's tokenizer).
    """

    def __init__(
        self, db: Db, embedder: Embedder, search: Search, counter: TokenCounter | None = None
    ) -> None:
        self.db = db
        self.embedder = embedder
        self.search = search
        self._counter = counter

    @property
    def counter(self) -> TokenCounter:
        """The token counter (the embedding model's tokenizer unless one was given)."""
        if self._counter is None:
            self._counter = TokenCounter(self.embedder.tokenizer, self.embedder.model_id)
        return self._counter

    def build(
        self,
        query: str,
        *,
        scope_id: str,
        budget_tokens: int,
        owner_id: str | None = None,
        ids: bool = True,
        touch: bool = False,
    ) -> Pack:
        """Build a pack for ``query`` that never exceeds ``budget_tokens``.

        Args:
            query: Free text (non-empty).
            scope_id: The scope; nothing outside it is used.
            budget_tokens: Hard limit on the tokens of the Markdown (1-1,000,000).
            owner_id: Only entries and documents of this owner.
            ids: Write item ids in the Markdown (``False`` saves tokens; ``citations`` keep them).
            touch: Let the entry search record the access (``access_count``).

        Returns:
            The :class:`Pack`.

        Raises:
            InvalidInput: An empty query or scope, or a budget out of range.
        """
        query = require_text(query, "query", max_len=10_000)
        scope_id = require_text(scope_id, "scope_id")
        budget = int(in_range(budget_tokens, "budget_tokens", 1, 1_000_000))
        n = max(5, min(50, budget // 40))
        entries = self._entries(query, scope_id, owner_id, n, touch)
        chunks = self._chunks(query, scope_id, owner_id, n)
        secondary: dict[str, list[Item]] = {}

        def more(picked: list[Item]) -> dict[str, list[Item]]:
            picked_e = [it for it in picked if it.section == "entries"]
            picked_c = [it for it in picked if it.section == "chunks"]
            secondary.update(self._secondary(scope_id, owner_id, picked_e, picked_c, entries))
            return secondary

        chosen, md, tokens = Packer(self.counter, ids=ids).fill(
            _merge(entries, chunks), more, budget
        )
        allc = {"entries": entries, "chunks": chunks, **secondary}
        return Pack(
            query=query,
            scope_id=scope_id,
            budget=budget,
            markdown=md,
            tokens=tokens,
            tokenizer=self.counter.name,
            citations=_citations(chosen),
            cut=_cut_report(allc, chosen, n),
        )

    # -- candidates ---------------------------------------------------------------------------
    def _weights(self) -> tuple[float, float]:
        s = self.search.settings
        total = (s.w_semantic + s.w_keyword) or 1.0
        return s.w_semantic / total, s.w_keyword / total

    def _entries(
        self, query: str, scope_id: str, owner_id: str | None, n: int, touch: bool
    ) -> list[Item]:
        ws, wk = self._weights()
        hits = self.search.search(
            query, scope_id=scope_id, limit=n * (3 if owner_id else 1), hops=0, touch=touch
        )
        out = []
        for h in hits:
            e = h.entry
            if owner_id is not None and e.owner_id != owner_id:
                continue
            if h.signals.keyword <= 0 and h.signals.semantic < MIN_SEMANTIC:
                continue
            rel = ws * h.signals.semantic + wk * h.signals.keyword
            cite = {"kind": "entry", "id": e.id, "title": e.title, "score": h.score}
            prefix = _entry_prefix(e.title, e.id)
            out.append(Item("entries", e.id, rel, prefix, _flat(e.content), citation=cite))
        return out[:n]

    def _chunks(self, query: str, scope_id: str, owner_id: str | None, n: int) -> list[Item]:
        ws, wk = self._weights()
        vector = self.embedder.embed_one(query)
        k = max(self.search.settings.search_candidates, n)
        while True:
            rows = self.db.read(
                "context/chunks",
                vector=vector,
                lucene=lucene_query(query),
                k=k,
                scope_id=scope_id,
                owner_id=owner_id,
            )
            full = bool(rows) and int(rows[0]["window"]) >= k
            if len(rows) >= n or not full or k >= 4000:
                break
            k *= 4
        best_kw = max((float(r["keyword"] or 0.0) for r in rows), default=0.0)
        items = []
        for r in rows:
            kw = float(r["keyword"] or 0.0) / best_kw if best_kw > 0 else 0.0
            sem = float(r["semantic"] or 0.0)
            if kw <= 0 and sem < MIN_SEMANTIC:
                continue
            rel = ws * max(0.0, sem) + wk * kw
            keep = ("id", "document_id", "document_title", "seq", "heading")
            cite = {"kind": "chunk", **{k: r[k] for k in keep}, "score": round(rel, 4)}
            items.append(
                Item("chunks", r["id"], rel, _chunk_prefix(r), _flat(r["text"]), citation=cite)
            )
        items.sort(key=lambda it: (-it.relevance, it.id))
        return items[:n]

    def _secondary(
        self,
        scope_id: str,
        owner_id: str | None,
        picked_e: list[Item],
        picked_c: list[Item],
        entries: list[Item],
    ) -> dict[str, list[Item]]:
        item_ids = [it.id for it in picked_e + picked_c]
        ents = self.db.read(
            "context/entities",
            entry_ids=[it.id for it in picked_e],
            chunk_ids=[it.id for it in picked_c],
            scope_id=scope_id,
            limit=50,
        )
        rels = (
            self.db.read(
                "context/relations",
                entity_ids=[r["id"] for r in ents],
                item_ids=item_ids,
                scope_id=scope_id,
                limit=50,
            )
            if ents
            else []
        )
        related = (
            self.db.read(
                "context/related",
                seeds=[{"id": it.id, "relevance": it.relevance} for it in picked_e],
                exclude=[it.id for it in entries],
                scope_id=scope_id,
                owner_id=owner_id,
                now=now_utc(),
                limit=20,
            )
            if picked_e
            else []
        )
        return {
            "entities": [_entity_item(r, len(item_ids)) for r in ents],
            "relations": [_relation_item(r) for r in rels],
            "related": [_related_item(r) for r in related],
        }


# -- rendering helpers -----------------------------------------------------------------------
def _flat(text: str | None) -> str:
    return _WS.sub(" ", text or "").strip()


def _refs(ids: Sequence[str], keys: dict[str, str]) -> str:
    return ", ".join(keys[i] for i in ids if i in keys)


def _entry_prefix(title: str | None, eid: str) -> Callable[[str, dict[str, str], bool], str]:
    name = f" {_flat(title)}" if title else ""
    return lambda key, _keys, ids: f"- [{key}]{name}" + (f" (entry {eid})" if ids else "")


def _chunk_prefix(r: dict[str, Any]) -> Callable[[str, dict[str, str], bool], str]:
    where = f"{_flat(r['document_title']) or r['document_id']} #{r['seq']}"
    if r.get("heading"):
        where += f" > {_flat(r['heading'])}"
    return lambda key, _keys, ids: f"- [{key}] {where}" + (f" (chunk {r['id']})" if ids else "")


def _entity_item(r: dict[str, Any], n_items: int) -> Item:
    kind = f" ({r['entity_type']})" if r.get("entity_type") else ""
    ids = list(r["mentioned_in"])

    def prefix(key: str, keys: dict[str, str], _ids: bool) -> str:
        refs = _refs(ids, keys)
        return f"- [{key}] {_flat(r['name'])}{kind}" + (f": in {refs}" if refs else "")

    cite = {"kind": "entity", "id": r["id"], "name": r["name"], "entity_type": r["entity_type"]}
    return Item("entities", r["id"], len(ids) / max(1, n_items), prefix, citation=cite)


def _relation_item(r: dict[str, Any]) -> Item:
    ids = list(r["evidence_in"])

    def prefix(key: str, keys: dict[str, str], _ids: bool) -> str:
        refs = _refs(ids, keys)
        ev = f" (evidence {refs})" if refs else f" ({r['evidence']} evidence)"
        return f"- [{key}] {_flat(r['subject'])} --{r['predicate']}--> {_flat(r['object'])}{ev}"

    cite = {"kind": "relation", **{k: r[k] for k in ("id", "predicate", "subject", "object")}}
    return Item("relations", r["id"], float(r["weight"] or 0.0), prefix, citation=cite)


def _related_item(r: dict[str, Any]) -> Item:
    rtype, via = str(r["rel_type"]), str(r["via_id"])
    name = f" {_flat(r['title'])}" if r.get("title") else ""

    def prefix(key: str, keys: dict[str, str], ids: bool) -> str:
        v = keys.get(via, via if ids else "a chosen entry")
        link = f"{v} {rtype} this" if r["outgoing"] else f"this {rtype} {v}"
        return f"- [{key}]{name} (" + (f"entry {r['id']}; " if ids else "") + f"{link})"

    cite = {"kind": "entry", "id": r["id"], "title": r["title"], "via": via, "relation": rtype}
    cite["score"] = round(float(r["score"]), 4)
    return Item("related", r["id"], float(r["score"]), prefix, _flat(r["content"]), citation=cite)


def _merge(a: list[Item], b: list[Item]) -> list[Item]:
    """Two relevance-ordered lists merged by relevance, each keeping its own order."""
    out: list[Item] = []
    i = j = 0
    while i < len(a) or j < len(b):
        if j >= len(b) or (i < len(a) and a[i].relevance >= b[j].relevance):
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    return out


def _citations(chosen: list[Item]) -> list[dict[str, Any]]:
    keys = Packer._keys(chosen)
    out = []
    for sec in SECTIONS:
        for it in chosen:
            if it.section == sec:
                key = keys[sec + ":" + it.id]
                out.append({"key": key, "section": sec, **it.citation, "truncated": it.truncated})
    return out


def _cut_report(allc: dict[str, list[Item]], chosen: list[Item], n: int) -> dict[str, Any]:
    report: dict[str, Any] = {}
    for sec in SECTIONS:
        inc = {it.id: it for it in chosen if it.section == sec}
        cands = allc.get(sec, [])
        report[sec] = {
            "candidates": len(cands),
            "included": len(inc),
            "truncated": [i for i, it in inc.items() if it.truncated],
            "left_out": [it.id for it in cands if it.id not in inc],
        }
    left = sum(len(v["left_out"]) for v in report.values())
    report["reason"] = (
        f"{left} candidate(s) did not fit in the token budget" if left else "everything fitted"
    )
    report["notes"] = [
        f"at most {n} entries and {n} chunks are considered for this budget; those that match "
        f"no query word and have a cosine under {MIN_SEMANTIC} are not candidates",
        "entities, relations and related entries come from the entries and chunks chosen first",
    ]
    return report
