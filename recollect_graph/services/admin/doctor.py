"""``doctor``: is everything in place? Java, Maven, the server, the schema, the models.

The doctor diagnoses and changes nothing: it never starts a server or applies the schema.
``deep=True`` also reads the whole graph for invariant violations
(:mod:`recollect_graph.services.admin.invariants`: one line per check, failing with the ids
involved).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from recollect_graph.db.client import Db
from recollect_graph.db.host import ensure_password
from recollect_graph.db.launcher_build import embedded_version, find_java, find_maven
from recollect_graph.db.queries import all_names, cypher
from recollect_graph.db.schema import latest_version, list_indexes
from recollect_graph.db.server import LocalServer
from recollect_graph.errors import RecollectError
from recollect_graph.models import Check
from recollect_graph.nlp.embedder import Embedder
from recollect_graph.nlp.spacy_loader import SpacyLoader
from recollect_graph.services.admin.invariants import Invariants
from recollect_graph.settings import Settings
from recollect_graph.vocabulary import CORE_VECTOR_LABELS, FULLTEXT_INDEXES


def _guard(name: str, fn: Callable[[], Check]) -> Check:
    try:
        return fn()
    except RecollectError as e:
        return Check(name=name, status="fail", detail=str(e))


def run_doctor(settings: Settings, *, load_models: bool = True, deep: bool = False) -> list[Check]:
    """Run every check and return one :class:`Check` per line.

    Args:
        settings: The settings to diagnose.
        load_models: Also load the embedding model and spaCy pipeline (slow: seconds).
        deep: Also run every invariant check over the whole graph (read-only; reads every node,
            so it takes a while on a large store). Each is a line ``invariant <check>``; a
            failing one names the ids involved in ``detail`` and lists the violations in
            ``data["violations"]``.
    """
    checks: list[Check] = []
    if settings.embedded:
        checks += _local_checks(settings)
    checks.append(_guard("cypher files", _cypher_files))
    db: Db | None = None
    try:
        db = _connect(settings, checks)
        if db is not None:
            checks += _schema_checks(db, settings)
            if deep:
                checks += _invariant_checks(db, settings)
    finally:
        if db is not None:
            db.close()
    if load_models:
        checks.append(_guard("embedding model", lambda: _embedder(settings)))
        checks.append(_guard("spaCy pipeline", lambda: _spacy(settings)))
    return checks


def _local_checks(settings: Settings) -> list[Check]:
    out = []

    def java() -> Check:
        version = embedded_version(settings)
        j = find_java(settings, version)
        return Check(
            name="java",
            status="ok",
            detail=f"Java {j.version} at {j.path} (from {j.source}) for Neo4j {version}",
        )

    out.append(_guard("java", java))
    server = LocalServer(settings)
    built = server.build.is_built()

    def maven() -> Check:
        try:
            m = find_maven(settings)
        except RecollectError as e:
            if built:
                return Check(name="maven", status="ok", detail="not installed (not needed: built)")
            raise e
        return Check(name="maven", status="ok", detail=f"Maven {m.version} at {m.path}")

    out.append(_guard("maven", maven))
    out.append(
        Check(
            name="launcher build",
            status="ok" if built else "fail",
            detail=(
                f"{server.build.dir} ({server.build.size_bytes() / 1e6:.0f} MB)"
                if built
                else "not built: run `recollect-graph neo4j build`"
            ),
        )
    )
    st = server.status()
    out.append(
        Check(
            name="local server",
            status="ok" if st.running else "fail",
            detail=(
                f"Neo4j {st.version} pid {st.pid} on {st.bolt_uri}, data in {st.home}, "
                f"up {st.uptime_s}s, {st.rss_mb} MB resident"
                if st.running
                else f"not running (data in {st.home}): run `recollect-graph neo4j start`"
            ),
            data=st.model_dump(mode="json"),
        )
    )
    return out


def _cypher_files() -> Check:
    names = all_names()
    for n in names:
        cypher(n)
    return Check(name="cypher files", status="ok", detail=f"{len(names)} files load")


def _connect(settings: Settings, checks: list[Check]) -> Db | None:
    if settings.embedded:
        st = LocalServer(settings).status()
        if not st.running:
            checks.append(Check(name="connection", status="fail", detail="no server to connect to"))
            return None
        uri = st.bolt_uri
        password = ensure_password(settings) if st.auth else None
    else:
        uri, password = settings.effective_uri(), settings.neo4j_password
    try:
        db = Db.connect(
            uri, user=settings.neo4j_user, password=password, database=settings.neo4j_database
        )
        info = db.read("admin/server_info")[0]
    except RecollectError as e:
        checks.append(Check(name="connection", status="fail", detail=f"{uri}: {e}"))
        return None
    checks.append(
        Check(
            name="connection",
            status="ok",
            detail=f"{uri}: {info['name']} {info['version']} {info['edition']}",
            data=info,
        )
    )
    return db


def _schema_checks(db: Db, settings: Settings) -> list[Check]:
    out = []
    versions = {int(r["version"]) for r in db.read("admin/applied_migrations")}
    latest = latest_version()
    out.append(
        Check(
            name="schema version",
            status="ok" if latest in versions else "fail",
            detail=(
                f"at version {latest}"
                if latest in versions
                else f"at {max(versions, default=0)}, needs {latest}: run `recollect-graph init`"
            ),
        )
    )
    indexes = list_indexes(db)
    offline = [i.name for i in indexes if i.state != "ONLINE"]
    names = {i.name for i in indexes}
    expected = {f"{lbl.lower()}_embedding" for lbl in CORE_VECTOR_LABELS} | set(FULLTEXT_INDEXES)
    missing = sorted(expected - names)
    status: Literal["ok", "warn", "fail"] = "ok" if not offline and not missing else "fail"
    detail = f"{len(indexes)} indexes ONLINE"
    if offline:
        detail = f"not ONLINE: {', '.join(offline)}"
    if missing:
        detail += f"; missing: {', '.join(missing)} (run `recollect-graph init`)"
    out.append(Check(name="indexes", status=status, detail=detail))
    embedder = Embedder(settings.embedding_model)
    try:
        dims = embedder.dimension
    except RecollectError as e:
        out.append(Check(name="vector dimensions", status="fail", detail=str(e)))
        return out
    wrong = [
        f"{i.name}={i.dimensions}" for i in indexes if i.type == "VECTOR" and i.dimensions != dims
    ]
    meta = db.read("admin/get_embedding_meta")
    stored_model = meta[0]["model"] if meta else None
    if wrong or (stored_model and stored_model != settings.embedding_model):
        detail = (
            f"model {settings.embedding_model!r} makes {dims}-dim vectors but "
            f"{', '.join(wrong) or 'the graph holds vectors of ' + repr(stored_model)}: run "
            "`recollect-graph init --reset-vector-indexes` and re-embed"
        )
        out.append(Check(name="vector dimensions", status="fail", detail=detail))
    else:
        n = sum(1 for i in indexes if i.type == "VECTOR")
        out.append(
            Check(
                name="vector dimensions",
                status="ok",
                detail=f"{n} vector indexes, {dims} dims, cosine, model {settings.embedding_model}",
            )
        )
    return out


#: Most ids named in a failing invariant line's ``detail`` (``data`` lists every violation).
DEEP_IDS_SHOWN = 10


def _invariant_checks(db: Db, settings: Settings) -> list[Check]:
    """One line per invariant check (``services/admin/invariants.py``), over the whole graph."""
    try:
        emb = Embedder(settings.embedding_model)
        found = Invariants(db, model=emb.model_id, dimensions=emb.dimension).check(None)
    except RecollectError as e:
        return [Check(name="invariants", status="fail", detail=str(e))]
    out = []
    for name, rows in found.items():
        if not rows:
            out.append(Check(name=f"invariant {name}", status="ok", detail="none found"))
            continue
        ids = [i for row in rows for i in _ids(row)]
        shown = ", ".join(dict.fromkeys(ids[:DEEP_IDS_SHOWN]))
        more = f" (+{len(ids) - DEEP_IDS_SHOWN} more)" if len(ids) > DEEP_IDS_SHOWN else ""
        out.append(
            Check(
                name=f"invariant {name}",
                status="fail",
                detail=f"{len(rows)} found: {shown}{more}; see `recollect-graph invariants`",
                data={"violations": rows},
            )
        )
    return out


def _ids(row: dict[str, Any]) -> list[str]:
    """The ids a violation row names (its ``id``, ``*_id`` and ``ids`` columns, not scopes)."""
    out: list[str] = []
    for key, value in row.items():
        if key in ("scope_id", "from_scope", "to_scope"):
            continue
        if key == "ids" or key.endswith("_ids"):
            out += [str(v) for v in value or []]
        elif (key == "id" or key.endswith("_id")) and value is not None:
            out.append(str(value))
    return out


def _embedder(settings: Settings) -> Check:
    emb = Embedder(
        settings.embedding_model, backend=settings.embedding_backend, cache_dir=settings.cache_dir
    )
    vec = emb.embed_one("doctor check")
    why = f" ({emb.fallback_reason})" if emb.fallback_reason else ""
    return Check(
        name="embedding model",
        status="warn" if settings.embedding_backend == "onnx" and emb.fallback_reason else "ok",
        detail=(
            f"{settings.embedding_model}: {len(vec)} dims, max {emb.max_tokens} tokens, "
            f"backend {emb.backend}{why}"
        ),
    )


def _spacy(settings: Settings) -> Check:
    loader = SpacyLoader(settings.spacy_model)
    meta = loader.meta()
    return Check(
        name="spaCy pipeline",
        status="ok",
        detail=f"{settings.spacy_model}: {meta['name']} {meta['version']}",
    )
