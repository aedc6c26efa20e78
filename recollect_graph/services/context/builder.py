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
from datetime import datetime
from typing import Any

from recollect_graph.db.client import Db
from recollect_graph.nlp.embedder import Embedder
from recollect_graph.services.context.budget import (
    MIN_SEMANTIC,
    SECTIONS,
    Item,
    Pack,
    Packer,
    TokenCounter,
)
from recollect_graph.services.kernel import fulltext
from recollect_graph.services.kernel.times import aware, now_utc
from recollect_graph.services.kernel.validation import in_range, require_text
from recollect_graph.services.search.hybrid import Search, lucene_query

_WS = re.compile(r"\s+")


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
        as_of: datetime | str | None = None,
        valid_at: datetime | str | None = None,
    ) -> Pack:
        """Build a pack for ``query`` that never exceeds ``budget_tokens``.

        Args:
            query: Free text (non-empty).
            scope_id: The scope; nothing outside it is used.
            budget_tokens: Hard limit on the tokens of the Markdown (1-1,000,000).
            owner_id: Only entries and documents of this owner.
            ids: Write item ids in the Markdown (``False`` saves tokens; ``citations`` keep them).
            touch: Let the entry search record the access (``access_count``).
            as_of: Record time: only what was recorded (and believed) at that moment, and
                documents ingested by then.
            valid_at: Valid time: only what was true at that moment (the rules of search).
                With either time, the pack has no related-entries, entities or relations
                sections (they follow the graph as it is now).

        Returns:
            The :class:`Pack`.

        Raises:
            InvalidInput: An empty query or scope, or a budget out of range.
        """
        query = require_text(query, "query", max_len=10_000)
        scope_id = require_text(scope_id, "scope_id")
        budget = int(in_range(budget_tokens, "budget_tokens", 1, 1_000_000))
        n = max(5, min(50, budget // 40))
        when = {"as_of": aware(as_of, "as_of"), "valid_at": aware(valid_at, "valid_at")}
        entries = self._entries(query, scope_id, owner_id, n, touch, when)
        chunks = self._chunks(query, scope_id, owner_id, n, when)
        secondary: dict[str, list[Item]] = {}

        def more(picked: list[Item]) -> dict[str, list[Item]]:
            if when["as_of"] is not None or when["valid_at"] is not None:
                return secondary
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
    def chunks(
        self, query: str, *, scope_id: str, limit: int = 10, owner_id: str | None = None
    ) -> list[dict[str, Any]]:
        """The document passages of a scope that bear on ``query``, most relevant first.

        The same candidates a pack's Chunks section is filled from (vector + full-text, scoped);
        each is its citation (``id, document_id, document_title, seq, heading, score``) plus
        ``text``.
        """
        query = require_text(query, "query", max_len=10_000)
        scope_id = require_text(scope_id, "scope_id")
        n = int(in_range(limit, "limit", 1, 200))
        return [
            {**it.citation, "text": it.body}
            for it in self._chunks(query, scope_id, owner_id, n, {"as_of": None, "valid_at": None})
        ]

    def _weights(self) -> tuple[float, float]:
        s = self.search.settings
        total = (s.w_semantic + s.w_keyword) or 1.0
        return s.w_semantic / total, s.w_keyword / total

    def _entries(
        self,
        query: str,
        scope_id: str,
        owner_id: str | None,
        n: int,
        touch: bool,
        when: dict[str, datetime | None],
    ) -> list[Item]:
        ws, wk = self._weights()
        hits = self.search.search(
            query,
            scope_id=scope_id,
            limit=n * (3 if owner_id else 1),
            hops=0,
            touch=touch,
            kinds=("entry", "turn"),
            as_of=when["as_of"],
            valid_at=when["valid_at"],
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

    def _chunks(
        self,
        query: str,
        scope_id: str,
        owner_id: str | None,
        n: int,
        when: dict[str, datetime | None],
    ) -> list[Item]:
        ws, wk = self._weights()
        vector = self.embedder.embed_query(query)
        k = max(self.search.settings.search_candidates, n)
        while True:
            rows = self.db.read(
                "context/chunks",
                vector=vector,
                lucene=fulltext.in_scope(lucene_query(query), scope_id, "chunk_text"),
                k=k,
                scope_id=scope_id,
                owner_id=owner_id,
                **when,
            )
            full = bool(rows) and int(rows[0]["window"]) >= k
            if len(rows) >= n or not full or k >= 4000:
                break
            k *= 4
        best_kw = max((float(r["keyword"] or 0.0) for r in rows), default=0.0)
        items = []
        for r in rows:
            kw = float(r["keyword"] or 0.0) / best_kw if best_kw > 0 else 0.0
            sem = self.embedder.similarity(float(r["semantic"] or 0.0))
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
