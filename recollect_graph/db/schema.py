"""Schema migrations (``cypher/schema/NNN_*.cypher``) and the start-up check.

``apply_schema`` runs every migration (each statement is ``IF NOT EXISTS``, so re-applying is a
no-op), records each in a ``SchemaMigration`` node, waits until every index is ONLINE and records
the embedding model and vector size in a ``SchemaMeta`` node. ``check_schema`` is what the library
runs at start-up: it refuses to work when a vector index's dimensions differ from the configured
model's, or when the vectors were made by another model.
"""

from __future__ import annotations

import hashlib
import logging
import time

from recollect_graph.db.backfill import backfill_captions
from recollect_graph.db.client import Db
from recollect_graph.db.queries import CypherQuery, cypher, migrations
from recollect_graph.errors import SchemaMismatch
from recollect_graph.models import IndexInfo, SchemaReport

log = logging.getLogger(__name__)

#: The filter properties of each vector index on Neo4j 2026+ (what its ``SEARCH ... WHERE``
#: lookups filter on inside the index); ``cypher/admin/vector_indexes_filtered.cypher`` creates
#: them so. Older servers get the same indexes without filter properties.
VECTOR_FILTERS: dict[str, tuple[str, ...]] = {
    "entry_embedding": ("scope_id", "entry_type", "retired_at", "soft_deleted_at"),
    "chunk_embedding": ("scope_id",),
    "entity_embedding": ("scope_id",),
    "topic_embedding": ("scope_id",),
    "session_embedding": ("scope_id",),
    "document_embedding": ("scope_id", "soft_deleted_at"),
}
_FILTERED_DDL = "admin/vector_indexes_filtered"

#: The commands a :class:`SchemaMismatch` names as its remedy.
_INIT = "recollect-graph init"
_RESET = "recollect-graph init --reset-vector-indexes"
_REEMBED = "recollect-graph reembed"


def _version(q: CypherQuery) -> int:
    return int(q.name.split("/")[-1].split("_", 1)[0])


def _checksum(q: CypherQuery) -> str:
    return hashlib.sha256(q.text.encode()).hexdigest()[:16]


def latest_version() -> int:
    """The newest migration this version of the package ships."""
    return max(_version(q) for q in migrations())


def list_indexes(db: Db) -> list[IndexInfo]:
    """Every index with its state and, for vector indexes, dimensions and similarity."""
    out = []
    for r in db.read("admin/show_indexes"):
        cfg = (r.get("options") or {}).get("indexConfig") or {}
        dims = cfg.get("vector.dimensions")
        sim = cfg.get("vector.similarity_function")
        out.append(
            IndexInfo(
                name=r["name"],
                type=r["type"],
                entity_type=r.get("entity_type"),
                labels=list(r.get("labels") or []),
                properties=list(r.get("properties") or []),
                state=r["state"],
                population_percent=r.get("population_percent"),
                dimensions=int(dims) if dims is not None else None,
                similarity=str(sim).lower() if sim else None,
            )
        )
    return out


def apply_schema(db: Db, *, model: str, dimensions: int, timeout_s: int = 300) -> SchemaReport:
    """Apply every migration idempotently, wait for ONLINE indexes, record what was applied.

    Args:
        db: The database client.
        model: Embedding model id the vector indexes are built for.
        dimensions: Its vector size.
        timeout_s: How long to wait for indexes to come ONLINE.

    Raises:
        SchemaMismatch: Existing vector indexes were built for another size or model.
    """
    t0 = time.monotonic()
    _refuse_mismatch(db, model=model, dimensions=dimensions, allow_missing=True)
    recreated: list[str] = []
    if db.filtered_vectors:
        recreated = _drop_unfiltered_vector_indexes(db)
        db.apply_statements(cypher(_FILTERED_DDL), {"dimensions": dimensions})
    recreated += _drop_unscoped_fulltext_indexes(db)
    done = {int(r["version"]) for r in db.read("admin/applied_migrations")}
    applied: list[str] = []
    already: list[str] = []
    for q in migrations():
        version = _version(q)
        db.apply_statements(q, {"dimensions": dimensions})
        db.write("admin/record_migration", version=version, name=q.name, checksum=_checksum(q))
        (already if version in done else applied).append(q.name)
    db.write("admin/await_indexes", timeout_s=timeout_s)
    db.write("admin/set_embedding_meta", model=model, dimensions=dimensions)
    backfill_captions(db)  # entries written before captions and entry-type labels
    indexes = list_indexes(db)
    not_online = [i.name for i in indexes if i.state != "ONLINE"]
    if not_online:
        raise SchemaMismatch(
            f"indexes not ONLINE after {timeout_s}s: {', '.join(not_online)}",
            remedy="wait_for_indexes",
            command=_INIT,
        )
    constraints = [r["name"] for r in db.read("admin/show_constraints")]
    return SchemaReport(
        applied=applied,
        already_applied=already,
        indexes=indexes,
        constraints=constraints,
        embedding_model=model,
        dimensions=dimensions,
        seconds=round(time.monotonic() - t0, 2),
        recreated_vector_indexes=recreated,
    )


def unfiltered_vector_indexes(db: Db) -> list[str]:
    """Vector indexes that lack their filter properties (only on Neo4j 2026+; else empty)."""
    if not db.filtered_vectors:
        return []
    out = []
    for idx in list_indexes(db):
        want = VECTOR_FILTERS.get(idx.name)
        if idx.type == "VECTOR" and want is not None:
            have = tuple(p for p in idx.properties if p != "embedding")
            if sorted(have) != sorted(want):
                out.append(idx.name)
    return out


#: Full-text indexes that carry a filter property (searched with a required scope phrase).
SCOPED_FULLTEXT: dict[str, str] = {
    "entry_text": "scope_id",
    "chunk_text": "scope_id",
    "session_text": "scope_id",
}


def unscoped_fulltext_indexes(db: Db) -> list[str]:
    """Full-text indexes made before they indexed their scope (``SCOPED_FULLTEXT``)."""
    return [
        idx.name
        for idx in list_indexes(db)
        if idx.type == "FULLTEXT"
        and idx.name in SCOPED_FULLTEXT
        and SCOPED_FULLTEXT[idx.name] not in idx.properties
    ]


def _drop_unscoped_fulltext_indexes(db: Db) -> list[str]:
    """Drop a full-text index without its scope property; the migrations recreate it, once."""
    names = unscoped_fulltext_indexes(db)
    for name in names:
        log.warning(
            "recreating full-text index %s with %s so each search ranks only its scope's "
            "matches (once; Neo4j repopulates it from the stored text)",
            name,
            SCOPED_FULLTEXT[name],
        )
        db.write("admin/drop_index", name=name)
    return names


def _drop_unfiltered_vector_indexes(db: Db) -> list[str]:
    """Drop the vector indexes made before filtered search (a 5.26-era or older 2026 schema).

    They are recreated with their filter properties right after (from the same stored vectors;
    Neo4j repopulates them), once: an index with the right properties is left alone.
    """
    names = unfiltered_vector_indexes(db)
    for name in names:
        log.warning(
            "recreating vector index %s with its filter properties %s for filtered vector "
            "search on Neo4j 2026 (once; it is repopulated from the stored vectors)",
            name,
            list(VECTOR_FILTERS[name]),
        )
        db.write("admin/drop_index", name=name)
    return names


def _refuse_mismatch(db: Db, *, model: str, dimensions: int, allow_missing: bool) -> None:
    reembed = (
        "set RECOLLECT_EMBEDDING_MODEL back to the model the graph was built with, or re-embed "
        f"into the new model with `{_REEMBED}` (resumable; rebuilds the vector indexes once), "
        f"or drop every vector with `{_RESET}`"
    )
    for idx in list_indexes(db):
        if idx.type == "VECTOR" and idx.dimensions is not None and idx.dimensions != dimensions:
            raise SchemaMismatch(
                f"vector index {idx.name} holds {idx.dimensions}-dimension vectors but the "
                f"configured model {model!r} makes {dimensions}: {reembed}",
                remedy="reset_vector_indexes",
                command=_REEMBED,
            )
    meta = db.read("admin/get_embedding_meta")
    if meta and meta[0]["model"] and meta[0]["model"] != model:
        raise SchemaMismatch(
            f"the graph's vectors were made by {meta[0]['model']!r} but the configured model is "
            f"{model!r}; mixing encodings would corrupt search: {reembed}",
            remedy="reset_vector_indexes",
            command=_REEMBED,
        )
    if not meta and not allow_missing:
        raise SchemaMismatch(
            "the schema is not initialised: run `recollect-graph init`",
            remedy="migrate",
            command=_INIT,
        )


def check_schema(db: Db, *, model: str, dimensions: int) -> None:
    """Start-up check: the schema exists, is current, and matches the embedding model.

    Raises:
        SchemaMismatch: With a message that says what to run.
    """
    _refuse_mismatch(db, model=model, dimensions=dimensions, allow_missing=False)
    versions = {int(r["version"]) for r in db.read("admin/applied_migrations")}
    latest = latest_version()
    stale = unfiltered_vector_indexes(db)
    if stale and latest in versions:
        raise SchemaMismatch(
            f"the vector indexes {', '.join(stale)} have no filter properties, which filtered "
            "vector search on Neo4j 2026 needs: run `recollect-graph init` (it recreates them "
            "once from the stored vectors)",
            remedy="migrate",
            command=_INIT,
        )
    unscoped = unscoped_fulltext_indexes(db)
    if unscoped and latest in versions:
        raise SchemaMismatch(
            f"the full-text index {', '.join(unscoped)} does not index the scope, which search "
            "needs to rank only a scope's own matches: run `recollect-graph init` (it recreates "
            "it once from the stored text)",
            remedy="migrate",
            command=_INIT,
        )
    if latest not in versions:
        raise SchemaMismatch(
            f"the graph's schema is at version {max(versions, default=0)} but this version of "
            f"recollect-graph needs {latest}: run `recollect-graph init`",
            remedy="migrate",
            command=_INIT,
        )


def reset_vector_indexes(db: Db, *, model: str, dimensions: int) -> list[str]:
    """Drop the vector indexes and the recorded model so ``apply_schema`` rebuilds them.

    Stored vectors of the old model are removed too (they cannot be mixed with the new model's);
    the caller re-embeds.

    Returns:
        Names of the dropped indexes.
    """
    dropped = []
    for idx in list_indexes(db):
        if idx.type == "VECTOR":
            db.write("admin/drop_index", name=idx.name)
            dropped.append(idx.name)
    db.autocommit("admin/clear_embeddings")
    db.write("admin/set_embedding_meta", model=model, dimensions=dimensions)
    return dropped
