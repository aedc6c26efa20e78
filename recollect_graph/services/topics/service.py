"""Topics: clusters of a scope's entries and documents, with keywords, a label and a digest.

No LLM: members are grouped by Louvain communities over a kNN similarity graph plus shared-entity
weight, keywords come from c-TF-IDF over the members' text, and the digest (the LLM-free stand-in
for a wiki article) is a handful of representative sentences that each cite their source. The
method and its thresholds are in :mod:`recollect_graph.services.topics.cluster`.

A topic's id is derived from its scope and sorted member ids, so a rebuild over unchanged input
gives the same topics. Its ``fingerprint`` is a sha256 over its members' (id, content hash) pairs:
a topic is stale when the stored ``stale`` flag is set (deleting a member sets it), or when the
fingerprint recomputed over its current live members differs from the stored one (a member's text
changed, or a member was deleted, soft-deleted, retired), or when it was built with another
embedding model or method.
"""

from __future__ import annotations

import builtins
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from recollect_graph.db.client import Db, Tx
from recollect_graph.errors import InvalidInput, TopicNotFound
from recollect_graph.ids import topic_id
from recollect_graph.nlp.embedder import Embedder
from recollect_graph.services.kernel.times import native, now_utc
from recollect_graph.services.kernel.validation import MAX_OFFSET, in_range, require_text
from recollect_graph.services.knowledge import footprint
from recollect_graph.services.topics import cluster as tc

MAX_CHUNKS = 30
MAX_TEXT_CHARS = 20_000

Progress = Callable[[int, int, str], None]
_STAGES = ("load", "graph", "cluster", "describe", "write")


class Topics:
    """Topic building and reading (``rg.topics``).

    Args:
        db: The database client.
        embedder: Its ``model_id`` decides which vectors are clustered (one model per graph).
        params: Thresholds of the method (defaults: :class:`~.topics_cluster.TopicParams`), on
            MiniLM's cosine scale: the embedder's calibration turns them into its model's raw
            cosines (:mod:`recollect_graph.nlp.model_profiles`).
    """

    def __init__(self, db: Db, embedder: Embedder, params: tc.TopicParams | None = None) -> None:
        self.db = db
        self.embedder = embedder
        base = params or tc.TopicParams()
        self.params = replace(
            base,
            sim_threshold=embedder.raw_similarity(base.sim_threshold),
            merge_threshold=embedder.raw_similarity(base.merge_threshold),
        )

    # -- build ---------------------------------------------------------------------------------
    def build(
        self,
        scope_id: str,
        *,
        all: bool = False,
        min_size: int | None = None,
        progress: Progress | None = None,
    ) -> dict[str, Any]:
        """Cluster the scope's entries and documents into topics and store them.

        The clustering runs over the whole scope; a topic whose members, content (fingerprint),
        model and method are unchanged and that is not flagged stale is kept as is, the others
        are written, and stored topics that no longer come out are removed. All writes happen in
        one transaction. When nothing in the scope changed since the last build (the scope
        fingerprint over every eligible member's id and content hash, the method and its
        parameters) and no topic is stale, no vector is read and every topic is kept.

        Args:
            scope_id: The scope.
            all: Rewrite every topic, even unchanged ones.
            min_size: Smallest community that is a topic (default ``params.min_size``, 3).
            progress: ``progress(step, steps, stage)`` after each stage.

        Returns:
            ``{scope_id, built, kept, removed, topics, members, clustered, unchanged, seconds,
            method, built_ids, kept_ids, removed_ids, operation_id}`` (``operation_id`` undoes a
            rebuild that removed topics; None when none was removed).

        Raises:
            InvalidInput: A bad scope or ``min_size``.
        """
        scope_id = require_text(scope_id, "scope_id", max_len=200)
        params = self.params
        if min_size is not None:
            if isinstance(min_size, bool) or not isinstance(min_size, int) or min_size < 2:
                raise InvalidInput("min_size must be an integer >= 2")
            params = tc.TopicParams(**{**params.__dict__, "min_size": min_size})
        t0 = time.perf_counter()

        def step(i: int) -> None:
            if progress:
                progress(i + 1, len(_STAGES), _STAGES[i])

        model = self.embedder.model_id
        hashes = self.db.read("topics/member_hashes", scope_id=scope_id, model=model)
        scope_fp = tc.fingerprint(
            [(f"{tc.METHOD}|{params}", None)] + [(h["id"], h["content_hash"]) for h in hashes]
        )
        existing = {r["topic"]["id"]: r for r in self.db.read("topics/current", scope_id=scope_id)}
        if (
            not all
            and existing
            and builtins.all(
                r["topic"].get("scope_fingerprint") == scope_fp
                and not _stale_reasons(r["topic"], r["current"], model)
                for r in existing.values()
            )
        ):
            # nothing in the scope changed since the last build: every topic is current
            for i in range(len(_STAGES)):
                step(i)
            kept = sorted(existing)
            return self._report(scope_id, t0, [], kept, [], len(hashes), existing, True)
        members = self._members(scope_id)
        step(0)
        x = tc.normalise([m["embedding"] for m in members]) if members else None
        edges: dict[tuple[int, int], float] = {}
        if x is not None and len(members) >= params.min_size:
            edges = tc.graph_edges(x, [m["entities"] for m in members], params)
        step(1)
        groups = tc.groups_of(edges, x, params) if x is not None and edges else []
        step(2)
        wanted: list[tuple[str, list[int], str]] = []
        for g in groups:
            ids = [members[i]["id"] for i in g]
            fp = tc.fingerprint((members[i]["id"], members[i]["content_hash"]) for i in g)
            wanted.append((topic_id(scope_id, ids), g, fp))
        keep: set[str] = set()
        if not all:
            for tid, _g, fp in wanted:
                old = existing.get(tid)
                # kept: stored from the same content, and its edges still say so
                if (
                    old
                    and old["topic"].get("fingerprint") == fp
                    and not _stale_reasons(old["topic"], old["current"], model)
                ):
                    keep.add(tid)
        build = [w for w in wanted if w[0] not in keep]
        rows, links = self._describe(scope_id, members, x, groups, build, existing, keep, params)
        step(3)
        wanted_ids = {w[0] for w in wanted}
        removed = sorted(tid for tid in existing if tid not in wanted_ids)

        def write(tx: Tx) -> str | None:
            # a rebuild that removes topics is undoable: the topics as they were are captured
            # first, the topics it writes anew are deleted by the undo
            capture = (
                footprint.Capture(tx.run, scope_id, topics=sorted(existing)) if removed else None
            )
            if removed:
                tx.run("topics/delete", scope_id=scope_id, ids=removed)
            if rows:
                tx.run("topics/upsert", scope_id=scope_id, rows=rows)
                entries = [_link(ln) for ln in links if ln["kind"] == "entry"]
                documents = [_link(ln) for ln in links if ln["kind"] == "document"]
                if entries:
                    tx.run("topics/link_entries", scope_id=scope_id, rows=entries)
                if documents:
                    tx.run("topics/link_documents", scope_id=scope_id, rows=documents)
            tx.run("topics/mark_scope", scope_id=scope_id, scope_fingerprint=scope_fp)
            change = capture.finish() if capture is not None else None
            if change is None:
                return None
            return footprint.record(
                tx.run,
                change,
                kind="topic_rebuild",
                scope_id=scope_id,
                now=now_utc(),
                entry_ids=[],
                reason=f"topics rebuilt: {len(removed)} removed",
                extra={"created_topics": [r["id"] for r in rows if r["id"] not in existing]},
            )

        op = self.db.write_tx(write)
        step(4)
        sizes = {tid: len(g) for tid, g, _fp in wanted}
        report = self._report(
            scope_id, t0, [r["id"] for r in rows], sorted(keep), removed, len(members), sizes
        )
        return {**report, "operation_id": op}

    @staticmethod
    def _report(
        scope_id: str,
        t0: float,
        built: builtins.list[str],
        kept: builtins.list[str],
        removed: builtins.list[str],
        members: int,
        sizes: Mapping[str, Any],
        unchanged: bool = False,
    ) -> dict[str, Any]:
        """The build report (``unchanged``: the scope had not changed, nothing was clustered)."""
        if unchanged:
            sizes = {k: int(v["topic"].get("member_count") or 0) for k, v in sizes.items()}
        return {
            "scope_id": scope_id,
            "built": len(built),
            "kept": len(kept),
            "removed": len(removed),
            "topics": len(built) + len(kept),
            "members": members,
            "clustered": sum(sizes.values()),
            "unchanged": unchanged,
            "seconds": round(time.perf_counter() - t0, 3),
            "method": tc.METHOD,
            "built_ids": built,
            "kept_ids": kept,
            "removed_ids": removed,
            "operation_id": None,
        }

    def _members(self, scope_id: str) -> list[dict[str, Any]]:
        """Entries and ready documents of the scope, as uniform member records."""
        model = self.embedder.model_id
        out: list[dict[str, Any]] = []
        for r in self.db.read("topics/entry_members", scope_id=scope_id, model=model):
            text = r["text"] or ""
            src = {"kind": "entry", "id": r["id"], "title": r["title"]}
            out.append(
                {
                    "id": r["id"],
                    "kind": "entry",
                    "title": r["title"],
                    "content_hash": r["content_hash"],
                    "embedding": r["embedding"],
                    "entities": r["entities"] or [],
                    "text": " ".join(p for p in (r["title"], text) if p)[:MAX_TEXT_CHARS],
                    "passages": [{"text": text[:MAX_TEXT_CHARS], "source": src}],
                }
            )
        for r in self.db.read(
            "topics/document_members", scope_id=scope_id, model=model, max_chunks=MAX_CHUNKS
        ):
            chunks = r["chunks"] or []
            passages = [
                {
                    "text": c.get("text") or "",
                    "source": {
                        "kind": "document",
                        "id": r["id"],
                        "title": r["title"],
                        "chunk_id": c.get("id"),
                        "chunk_seq": c.get("seq"),
                        "heading": c.get("heading"),
                    },
                }
                for c in chunks
            ]
            text = " ".join([r["title"] or "", *(c.get("text") or "" for c in chunks)])
            out.append(
                {
                    "id": r["id"],
                    "kind": "document",
                    "title": r["title"],
                    "content_hash": r["content_hash"],
                    "embedding": r["embedding"],
                    "entities": r["entities"] or [],
                    "text": text[:MAX_TEXT_CHARS],
                    "passages": passages,
                }
            )
        dims = {len(m["embedding"]) for m in out}
        if len(dims) > 1:
            raise InvalidInput(f"scope {scope_id!r} mixes vector dimensions {sorted(dims)}")
        return out

    def _describe(
        self,
        scope_id: str,
        members: Sequence[Mapping[str, Any]],
        x: np.ndarray | None,
        groups: Sequence[Sequence[int]],
        build: Sequence[tuple[str, Sequence[int], str]],
        existing: Mapping[str, Mapping[str, Any]],
        keep: set[str],
        params: tc.TopicParams,
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """Topic rows (props) and member links for the topics to write."""
        if not build or x is None:
            return [], []
        in_topic = {i for g in groups for i in g}
        background = [m["text"] for i, m in enumerate(members) if i not in in_topic]
        index = {tuple(g): n for n, g in enumerate(groups)}
        kws = tc.ctfidf(
            [[members[i]["text"] for i in g] for g in groups],
            background=background,
            top=max(params.keywords, 20),
        )
        used = {str(existing[t]["topic"].get("label")) for t in keep}
        now = now_utc()
        rows: list[dict[str, Any]] = []
        links: list[dict[str, Any]] = []
        for tid, g, fp in build:
            terms = kws[index[tuple(g)]]
            keywords = [t for t, _ in terms[: params.keywords]]
            name = base = tc.label([t for t, _ in terms], params.label_terms)
            n = 2
            while name in used:
                name, n = f"{base} ({n})", n + 1
            used.add(name)
            c = tc.centroid(x[list(g)])
            conf = tc.confidences(x[list(g)], c)
            cited = [
                {"id": members[i]["id"], "confidence": cf, "passages": members[i]["passages"]}
                for i, cf in zip(g, conf, strict=True)
            ]
            dig = tc.digest(cited, dict(terms), params)
            rows.append(
                {
                    "id": tid,
                    "props": {
                        "label": name,
                        "keywords": keywords,
                        "keyword_weights": [w for _, w in terms[: params.keywords]],
                        "embedding": [float(v) for v in c],
                        "embedding_model": self.embedder.model_id,
                        "fingerprint": fp,
                        "member_count": len(g),
                        "member_hashes": [
                            f"{members[i]['id']}:{members[i]['content_hash'] or ''}" for i in g
                        ],
                        "mean_confidence": round(sum(conf) / len(conf), 4),
                        "digest": json.dumps(dig),
                        "method": tc.METHOD,
                        "built_at": now,
                    },
                }
            )
            links.extend(
                {
                    "topic_id": tid,
                    "id": members[i]["id"],
                    "kind": members[i]["kind"],
                    "confidence": cf,
                }
                for i, cf in zip(g, conf, strict=True)
            )
        return rows, links

    # -- read ----------------------------------------------------------------------------------
    def list(
        self, scope_id: str, *, limit: int = 1000, offset: int = 0
    ) -> builtins.list[dict[str, Any]]:
        """The topics of a scope, largest first, each with ``stale`` recomputed.

        A page: largest first (ties by id), the first ``offset`` skipped, then at most ``limit``
        (1-10000).

        Returns:
            ``[{id, label, keywords, member_count, current_members, stale, stale_reasons,
            built_at}]``.
        """
        scope_id = require_text(scope_id, "scope_id", max_len=200)
        model = self.embedder.model_id
        out = []
        rows = self.db.read(
            "topics/list",
            scope_id=scope_id,
            skip=int(in_range(offset, "offset", 0, MAX_OFFSET)),
            limit=int(in_range(limit, "limit", 1, 10_000)),
        )
        for r in rows:
            t = r["topic"]
            reasons = _stale_reasons(t, r["current"], model)
            out.append(
                {
                    "id": t["id"],
                    "label": t.get("label"),
                    "keywords": t.get("keywords") or [],
                    "member_count": t.get("member_count"),
                    "current_members": len(r["current"]),
                    "stale": bool(reasons),
                    "stale_reasons": reasons,
                    "built_at": native(t.get("built_at")),
                }
            )
        return out

    def show(self, scope_id: str, topic: str) -> dict[str, Any]:
        """One topic by id or label: keywords, digest (sentences with sources), members.

        Raises:
            TopicNotFound: No topic with that id or label in the scope.
            InvalidInput: The label names several topics (use the id).
        """
        scope_id = require_text(scope_id, "scope_id", max_len=200)
        topic = require_text(topic, "topic", max_len=500)
        rows = self.db.read("topics/get", scope_id=scope_id, topic=topic)
        if not rows:
            raise TopicNotFound(topic, scope_id=scope_id)
        exact = [r for r in rows if r["topic"]["id"] == topic]
        if len(rows) > 1 and not exact:
            ids = ", ".join(r["topic"]["id"] for r in rows)
            raise InvalidInput(f"label {topic!r} names several topics ({ids}); use an id")
        r = (exact or rows)[0]
        t = {k: v for k, v in r["topic"].items() if k not in ("embedding", "member_hashes")}
        members = r["members"]
        current = [[m["id"], m["content_hash"]] for m in members if m["live"]]
        reasons = _stale_reasons(t, current, self.embedder.model_id)
        dig = t.get("digest")
        t["digest"] = json.loads(dig) if isinstance(dig, str) and dig else (dig or [])
        t.update(
            built_at=native(t.get("built_at")),
            stale=bool(reasons),
            stale_reasons=reasons,
            members=members,
        )
        return t

    def is_stale(self, scope_id: str, topic: str) -> bool:
        """Whether a topic (id or label) needs a rebuild (flag, content fingerprint, model)."""
        return bool(self.show(scope_id, topic)["stale"])


def _link(row: Mapping[str, Any]) -> dict[str, Any]:
    """A link row without its ``kind`` (the statement knows it)."""
    return {"topic_id": row["topic_id"], "id": row["id"], "confidence": row["confidence"]}


def _stale_reasons(
    topic: Mapping[str, Any], current: Sequence[Sequence[Any]], model: str
) -> builtins.list[str]:
    """Why a stored topic is stale (empty when it is current)."""
    reasons = []
    if topic.get("stale"):
        reasons.append("flagged")
    if tc.fingerprint((c[0], c[1]) for c in current) != topic.get("fingerprint"):
        reasons.append("members_changed")
    if topic.get("embedding_model") != model:
        reasons.append("model_changed")
    if topic.get("method") != tc.METHOD:
        reasons.append("method_changed")
    return reasons
