"""Frozen records that the lifecycle, documents, transfer and sessions operations return.

Each field keeps the name of the key the operation's plain dict used to have, in the same order,
so ``record.model_dump()`` is that dict (the CLI's ``--json`` output prints it).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from recollect_graph.models import Entry, Record

# -- contradictions, supersession and invalidation -------------------------------------------


class OpenConflict(Record):
    """One open contradiction of a scope (a ``CONTRADICTS`` edge between current entries).

    Attributes:
        source: The newer entry, the one that contradicts.
        target: The existing entry it contradicts.
        type: The kind of contradiction (``direct``, ``negation``, ...); None on a hand-made edge.
        score: How strong the contradiction is (0-1); None on a hand-made edge.
        reason: Why the two entries conflict, in words.
        claim: The source entry's claim that conflicts, if recorded.
        existing_claim: The target entry's claim it conflicts with, if recorded.
        created_at: When the contradiction was recorded.
    """

    source: Entry
    target: Entry
    type: str | None = None
    score: float | None = None
    reason: str | None = None
    claim: dict[str, Any] | None = None
    existing_claim: dict[str, Any] | None = None
    created_at: datetime | None = None


class Resolution(Record):
    """The outcome of resolving a contradiction (``resolve``).

    Attributes:
        kept: The entry that stays.
        loser: The entry superseded by it (or hard-deleted with ``forget_loser``).
        operation_id: The operation that undoes the resolution.
    """

    kept: str
    loser: str
    operation_id: str | None = None


class Supersession(Record):
    """The outcome of ``supersede(scope, entity, relation, new_value)``.

    Attributes:
        new_entry_id: The entry stating the new value (found or written).
        created: Whether that entry was written by this call.
        superseded: The entries it retired and now supersedes.
        operation_id: The operation that undoes the change (None when nothing matched: nothing
            was retired and no operation was written).
    """

    new_entry_id: str
    created: bool
    superseded: list[str]
    operation_id: str | None = None


class EntrySupersession(Record):
    """The outcome of ``supersede_entry(old_id, new_id)``.

    Attributes:
        new_entry_id: The entry that supersedes.
        superseded: The entry it retired (``[old_id]``).
        operation_id: The operation that undoes the change.
    """

    new_entry_id: str
    superseded: list[str]
    operation_id: str


class Invalidation(Record):
    """The outcome of ``invalidate(scope, pattern, ...)``.

    Attributes:
        invalidated: The entries weakened (and, with a replacement, retired).
        replacement_id: The replacement entry that supersedes them, if one was given.
        operation_id: The operation that undoes the change (None when nothing matched: nothing
            was weakened and no operation was written).
    """

    invalidated: list[str]
    replacement_id: str | None = None
    operation_id: str | None = None


# -- consolidation ----------------------------------------------------------------------------


class Merge(Record):
    """A cluster of near-duplicate entries that consolidation merges into one.

    Attributes:
        members: The entry ids of the cluster, sorted.
        similarity: The lowest similarity between two members of the cluster.
    """

    members: list[str]
    similarity: float


class ProposedResolution(Record):
    """A conflict resolution that consolidation proposes: keep the newer entry.

    Attributes:
        keep: The entry to keep (the newer of the two).
        drop: The entry to supersede.
        type: The kind of contradiction.
        reason: Why the two entries conflict.
    """

    keep: str
    drop: str
    type: str | None = None
    reason: str | None = None


class ConsolidationReport(Record):
    """What ``consolidate`` proposes (dry run) or applied.

    Attributes:
        scope_id: The scope consolidated.
        merges: Clusters of near-duplicates, largest first.
        resolutions: Proposed resolutions of the open conflicts (newer wins; applied with the
            merges when ``dry_run`` is false).
        archive: Ids of decayed entries with a negative signal, to retire.
        applied: Whether the merges and archiving were written.
        operation_id: The operation that undoes them (None in a dry run).
        consolidated_ids: The consolidated entries written, one per merge (empty in a dry run).
    """

    scope_id: str
    merges: list[Merge]
    resolutions: list[ProposedResolution]
    archive: list[str]
    applied: bool = False
    operation_id: str | None = None
    consolidated_ids: list[str] = Field(default_factory=list)


# -- documents --------------------------------------------------------------------------------


class IngestResult(Record):
    """The outcome of ingesting one document.

    Attributes:
        document_id: The document's id.
        status: ``created``, ``updated``, ``unchanged`` or ``failed``.
        title: Its title.
        run_id: The pipeline run that processed it (None when unchanged).
        counts: What the run did (``chunks_total``, ``chunks_embedded``, ...).
        steps: Per pipeline step, its timings and details.
        error: Why it failed, when it did.
        path: The file it was read from, if any.
    """

    document_id: str
    status: Literal["created", "updated", "unchanged", "failed"]
    title: str
    run_id: str | None = None
    counts: dict[str, int] = Field(default_factory=dict)
    steps: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None
    path: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for ``--json``)."""
        return self.model_dump()


class FolderReport(Record):
    """The outcome of ingesting a file or folder.

    Attributes:
        documents: One result per document ingested (or failed), in file order.
        skipped: Files not ingested, each as ``"path: why"``.
        seconds: How long the ingest took.
        run_id: The batch ``PipelineRun`` recorded on the collection.
    """

    documents: list[IngestResult]
    skipped: list[str]
    seconds: float = 0.0
    run_id: str | None = None

    def totals(self) -> dict[str, Any]:
        """Documents per status, chunks embedded, throughput."""
        out: dict[str, Any] = {s: 0 for s in ("created", "updated", "unchanged", "failed")}
        for d in self.documents:
            out[d.status] += 1
        out["documents"] = len(self.documents)
        out["skipped"] = len(self.skipped)
        out["chunks_total"] = sum(d.counts.get("chunks_total", 0) for d in self.documents)
        out["chunks_embedded"] = sum(d.counts.get("chunks_embedded", 0) for d in self.documents)
        out["seconds"] = round(self.seconds, 2)
        s = self.seconds or 1e-9
        out["documents_per_s"] = round(len(self.documents) / s, 2)
        out["chunks_per_s"] = round(out["chunks_total"] / s, 2)
        return out

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for ``--json``)."""
        return {
            "totals": self.totals(),
            "run_id": self.run_id,
            "documents": [d.to_dict() for d in self.documents],
            "skipped": self.skipped,
        }


# -- transfer ---------------------------------------------------------------------------------


class ImportReport(Record):
    """The outcome of importing an export (``import_``).

    Attributes:
        operation_id: The one operation that undoes the import (None when it changed
            nothing).
        scope_id: The scope imported into.
        source_scope_id: The scope the export was taken from.
        ids: ``kept`` (the exported ids) or ``remapped`` (into the target scope).
        nodes: Nodes written (new, changed or already there as they are in the export).
        rels: Relationships written (likewise).
        skipped_rels: Relationships not written (an end missing from the import).
        nodes_created: Nodes that were not there before.
        nodes_updated: Nodes that were there with other properties or fewer labels.
        nodes_unchanged: Nodes already there exactly as exported (a repeated import: all).
        rels_created: Relationships that were not there before.
        rels_updated: Relationships that were there with other properties.
        rels_unchanged: Relationships already there exactly as exported.
    """

    scope_id: str
    source_scope_id: str
    ids: Literal["kept", "remapped"]
    nodes: int
    rels: int
    skipped_rels: int
    nodes_created: int = 0
    nodes_updated: int = 0
    nodes_unchanged: int = 0
    rels_created: int = 0
    rels_updated: int = 0
    rels_unchanged: int = 0
    operation_id: str | None = None


# -- sessions ---------------------------------------------------------------------------------


class ForkParent(Record):
    """Where a fork resumes: its top-level ancestor (fork-parent backtracking).

    Attributes:
        session_id: The session asked about.
        fork_marker: Whether it is a fork (a sub-agent's session).
        chain: Its ancestors' ids, nearest first.
        parent_pointer: The resumable top-level ancestor (or, when that record is gone, the
            pointer to it); None for a session that is no fork.
        parent_cwd: That ancestor's working directory (None when unknown).
        resumable: Whether the session can be resumed (a known cwd).
        resume: The command that resumes it, or None.
        missing_parent: The pointer whose session record is gone, if any.
    """

    session_id: str
    fork_marker: bool
    chain: list[str]
    parent_pointer: str | None = None
    parent_cwd: str | None = None
    resumable: bool = False
    resume: str | None = None
    missing_parent: str | None = None
