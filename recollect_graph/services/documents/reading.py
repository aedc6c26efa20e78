"""Reading documents: resolve a reference, one document, its text, chunks and pipeline runs, a page.

Mixed into :class:`~recollect_graph.services.documents.service.Documents`, which writes them.
"""

from __future__ import annotations

import builtins
import contextlib
import json
from collections.abc import Mapping
from typing import Any

from recollect_graph.db.client import Db
from recollect_graph.errors import DocumentNotFound, InvalidInput, PipelineRunNotFound
from recollect_graph.services.kernel.times import native_row
from recollect_graph.services.kernel.validation import one_of, require_text
from recollect_graph.vocabulary import DOCUMENT_STATUSES


class DocumentReads:
    """The reading side of the document service (``db`` set by the subclass)."""

    db: Db

    def resolve(self, ref: str, *, scope_id: str) -> str:
        """A document's id from its id, source id, title or path (exactly one must match)."""
        ref = require_text(ref, "document", max_len=2000)
        rows = self.db.read("documents/find", scope_id=scope_id, ref=ref)
        if not rows:
            raise DocumentNotFound(ref, scope_id=scope_id)
        if len(rows) > 1 and rows[0]["id"] != ref:
            raise InvalidInput(f"{ref!r} matches several documents; use the document id")
        return str(rows[0]["id"])

    def get(self, ref: str, *, scope_id: str, chunks: bool = False) -> dict[str, Any]:
        """A document (without its content) with similar/sharing documents and its last run."""
        doc_id = self.resolve(ref, scope_id=scope_id)
        row = self.db.read("documents/get", scope_id=scope_id, id=doc_id)[0]
        out = {**_plain(row["doc"]), "similar": row["similar"], "sharing": row["sharing"]}
        out["last_run"] = _run(row["last_run"]) if row["last_run"] else None
        out.pop("content", None)
        if chunks:
            out["chunks"] = self.chunks(doc_id, scope_id=scope_id)
        return out

    def content(self, ref: str, *, scope_id: str) -> str:
        """A document's stored text."""
        doc_id = self.resolve(ref, scope_id=scope_id)
        return str(
            self.db.read("documents/get", scope_id=scope_id, id=doc_id)[0]["doc"]["content"] or ""
        )

    def chunks(self, ref: str, *, scope_id: str) -> builtins.list[dict[str, Any]]:
        """A document's chunks in order, each with the entities it mentions."""
        doc_id = self.resolve(ref, scope_id=scope_id)
        return [
            dict(r["chunk"]) for r in self.db.read("documents/chunks", scope_id=scope_id, id=doc_id)
        ]

    def run(self, run_id: str, *, scope_id: str) -> dict[str, Any]:
        """One pipeline run (a document's, or a folder ingest's ``batch`` run) by id."""
        rows = self.db.read("documents/run", scope_id=scope_id, id=run_id)
        if not rows:
            raise PipelineRunNotFound(run_id, scope_id=scope_id)
        return _run(rows[0]["run"])

    def runs(self, ref: str, *, scope_id: str, limit: int = 20) -> builtins.list[dict[str, Any]]:
        """A document's pipeline runs, newest first."""
        doc_id = self.resolve(ref, scope_id=scope_id)
        rows = self.db.read("documents/runs", scope_id=scope_id, id=doc_id, limit=limit)
        return [_run(r["run"]) for r in rows]

    def list(
        self,
        scope_id: str,
        *,
        collection: str | None = None,
        status: str | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> builtins.list[dict[str, Any]]:
        """A page of the scope's documents, most recently updated first."""
        if status is not None:
            one_of(status, "status", DOCUMENT_STATUSES)
        rows = self.db.read(
            "documents/list",
            scope_id=scope_id,
            collection=collection,
            status=status,
            skip=max(0, int(offset)),
            limit=max(1, min(int(limit), 1000)),
        )
        return [_plain(r["doc"]) for r in rows]


def _plain(row: Mapping[str, Any]) -> dict[str, Any]:
    out = native_row(row)
    if isinstance(out.get("metadata"), str):
        with contextlib.suppress(ValueError):
            out["metadata"] = json.loads(out["metadata"])
    return out


def _run(row: Mapping[str, Any]) -> dict[str, Any]:
    out = _plain(row)
    if isinstance(out.get("step_details"), str):
        out["step_details"] = json.loads(out["step_details"])
    return out
