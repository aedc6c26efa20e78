"""The database client: driver lifecycle, managed transactions, batching, error translation.

Every statement is a named ``cypher/`` file, run with ``$params``; the only exception is
:meth:`Db.run_adhoc`, the analyst's own Cypher (``rg.query`` and ``recollect-graph cypher``), which
is read-only unless the caller asks for a write, and checked against the allow-lists of
:mod:`recollect_graph.db.adhoc`. Reads use ``execute_query(routing_=READ)``;
multi-statement writes use ``session.execute_write`` with a transaction function, which the driver
retries on transient errors.
"""

from __future__ import annotations

import contextlib
import logging
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from neo4j import Driver, GraphDatabase, ManagedTransaction, RoutingControl
from neo4j import exceptions as nx

from recollect_graph.db import adhoc
from recollect_graph.db.queries import C25_SUFFIX, CypherQuery, body_params, cypher, has_c25_variant
from recollect_graph.db.records import Row, plain_row, record_data
from recollect_graph.errors import (
    AuthFailed,
    ConstraintViolation,
    DatabaseUnavailable,
    ForbiddenQuery,
    InvalidInput,
    QueryError,
    ReadOnlyViolation,
    RecollectError,
)

log = logging.getLogger(__name__)
T = TypeVar("T")
#: Neo4j's code for a statement that found a node (by an index) which a concurrent transaction
#: deleted before the statement could read or lock it (read-committed isolation).
VANISHED = "Neo.ClientError.Statement.EntityNotFound"
#: Attempts of a statement or transaction that keeps meeting vanished nodes.
VANISHED_ATTEMPTS = 8
#: First Neo4j release whose vector indexes filter inside the index (Cypher 25 ``SEARCH ...
#: WHERE`` over ``WITH [...]`` properties). Older servers (5.26 LTS, an old Aura) get the
#: ``queryNodes`` statements, which filter after the index.
FILTERED_VECTOR_SINCE = (2026, 1)


def parse_server_version(text: str) -> tuple[int, ...]:
    """The version numbers in ``text``: ``"5.26.30-aura"`` -> ``(5, 26, 30)``; none: ``()``."""
    m = re.match(r"\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?", text)
    return tuple(int(g) for g in m.groups() if g is not None) if m else ()


def _short(params: Mapping[str, Any]) -> dict[str, Any]:
    """Parameters for DEBUG logs: no vectors, no long text."""
    out: dict[str, Any] = {}
    for k, v in params.items():
        if isinstance(v, str) and len(v) > 60:
            out[k] = v[:57] + "..."
        elif isinstance(v, list | tuple):
            out[k] = f"<{len(v)} items>"
        else:
            out[k] = v
    return out


@contextlib.contextmanager
def translate_errors(what: str = "query") -> Iterator[None]:
    """Turn driver exceptions into the project's error types (``raise ... from e``)."""
    try:
        yield
    except RecollectError:
        raise
    except nx.AuthError as e:
        raise AuthFailed(
            "Neo4j refused the credentials: check NEO4J_USER / NEO4J_PASSWORD "
            "(the embedded server's password is kept in the config directory)"
        ) from e
    except (nx.ServiceUnavailable, nx.SessionExpired) as e:
        raise DatabaseUnavailable(f"Neo4j is not reachable ({e}); is the server running?") from e
    except nx.ConstraintError as e:
        raise ConstraintViolation(f"{what}: {e.message}", neo4j_code=e.code) from e
    except nx.Neo4jError as e:
        code = e.code or ""
        if code.endswith("Statement.AccessMode"):
            raise ReadOnlyViolation(
                f"{what}: this statement writes; pass --write (or write=True) to allow it",
                neo4j_code=code,
            ) from e
        if code.startswith("Neo.TransientError") or code.startswith("Neo.DatabaseError"):
            raise DatabaseUnavailable(f"{what}: Neo4j failed after retries: {e.message}") from e
        raise QueryError(f"{what}: {e.message} [{code}]", neo4j_code=code) from e
    except nx.DriverError as e:
        raise DatabaseUnavailable(f"{what}: driver error: {e}") from e


_SEARCH_BUG = re.compile(r"out of bounds for length \d+")


def _search_internal_error(e: nx.Neo4jError) -> bool:
    """Neo4j 2026.08.1's internal error in a vector SEARCH ("Index N out of bounds for length")."""
    code = str(e.code or "")
    internal = code.startswith(("Neo.DatabaseError", "Neo.TransientError"))
    return bool(internal and _SEARCH_BUG.search(e.message or ""))


def again_if_vanished(fn: Callable[[], T]) -> T:
    """Run ``fn`` (a whole statement or transaction) again when a node vanished under it.

    Neo4j reads committed data: a statement can find an entry through an index, then a
    concurrent ``forget`` commits its deletion, and reading or linking that node fails with
    ``EntityNotFound``. Nothing was written (the transaction is rolled back), and running it
    again sees the deletion, so the vanished item is simply not matched: a search whose hit was
    forgotten meanwhile records its access without it instead of failing. The driver retries
    only transient errors, so this is done here, at most :data:`VANISHED_ATTEMPTS` times.
    """
    for attempt in range(1, VANISHED_ATTEMPTS + 1):
        try:
            return fn()
        except nx.Neo4jError as e:
            if e.code != VANISHED or attempt == VANISHED_ATTEMPTS:
                raise
            log.debug("a node vanished under the statement (attempt %d): running it again", attempt)
            time.sleep(0.005 * attempt)
    raise AssertionError("unreachable")  # pragma: no cover


class Tx:
    """A transaction handed to a :meth:`Db.write_tx` function: runs named files only."""

    def __init__(self, tx: ManagedTransaction, db: Db | None = None) -> None:
        self._tx = tx
        self._db = db

    def run(self, name: str, /, **params: Any) -> list[Row]:
        """Run ``cypher/<name>.cypher`` in this transaction and return its rows as dicts."""
        q = cypher(self._db.statement_name(name) if self._db else name)
        log.debug("tx %s %s", name, _short(params))
        result = self._tx.run(q.text, _bind(q, params))
        return [record_data(r) for r in result]


def _bind(q: CypherQuery, params: Mapping[str, Any]) -> dict[str, Any]:
    """Check that exactly the declared parameters are passed (a typo is a bug, not a no-op)."""
    given = set(params)
    if given != set(q.params):
        raise InvalidInput(
            f"cypher/{q.name}: expected parameters {sorted(q.params)}, got {sorted(given)}"
        )
    return dict(params)


class Db:
    """Owns a driver connected to one database and runs the project's named statements.

    Args:
        driver: An open driver. ``Db`` closes it in :meth:`close` when ``owns_driver`` is true.
        database: The database name (``neo4j`` on Community).
        owns_driver: Whether :meth:`close` closes the driver.
    """

    def __init__(self, driver: Driver, database: str = "neo4j", *, owns_driver: bool = True):
        self.driver = driver
        self.database = database
        self._owns = owns_driver
        self._udfs: frozenset[str] | None = None
        self._server_version: tuple[int, ...] | None = None
        #: Vector lookups whose Cypher 25 SEARCH form met Neo4j's internal error (see _execute).
        self._c25_failed: set[str] = set()

    # -- server version ---------------------------------------------------------------------
    @property
    def server_version(self) -> tuple[int, ...]:
        """The server's Neo4j version as numbers, read once per client (``dbms.components``)."""
        if self._server_version is None:
            rows = self.read("admin/server_info")
            kernel = next((r for r in rows if r.get("name") == "Neo4j Kernel"), {})
            self._server_version = parse_server_version(str(kernel.get("version") or "0"))
        return self._server_version

    @property
    def filtered_vectors(self) -> bool:
        """True when the server filters vector lookups inside the index (Neo4j 2026.01+).

        Chooses, once per client, between each vector lookup's two statements: ``<name>_c25``
        (Cypher 25 ``SEARCH ... WHERE``) and ``<name>`` (``db.index.vector.queryNodes`` and a
        filter afterwards, with the callers widening ``k`` when filters leave too few).
        """
        return self.server_version >= FILTERED_VECTOR_SINCE

    def statement_name(self, name: str) -> str:
        """The statement this server runs for ``name``: its Cypher 25 variant where it has one."""
        if has_c25_variant(name) and self.filtered_vectors:
            return name + C25_SUFFIX
        return name

    @classmethod
    def connect(
        cls,
        uri: str,
        *,
        user: str | None,
        password: str | None,
        database: str = "neo4j",
        verify: bool = True,
    ) -> Db:
        """Open a driver and (by default) check that the server answers.

        Raises:
            AuthFailed: The credentials were refused.
            DatabaseUnavailable: Nothing answers at ``uri``.
        """
        auth = (user or "neo4j", password) if password else None
        driver = GraphDatabase.driver(
            uri,
            auth=auth,
            max_transaction_retry_time=30.0,
            connection_acquisition_timeout=60.0,
            user_agent="recollect-graph",
            notifications_min_severity="OFF",
        )
        db = cls(driver, database)
        if verify:
            try:
                with translate_errors("connect"):
                    driver.verify_connectivity()
                    driver.execute_query("RETURN 1", database_=database)
            except Exception:
                driver.close()
                raise
        return db

    def close(self) -> None:
        """Close the driver if this object owns it."""
        if self._owns:
            self.driver.close()

    def __enter__(self) -> Db:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- named statements -------------------------------------------------------------------
    def read(self, name: str, /, **params: Any) -> list[Row]:
        """Run a read-only named statement (routed to readers on a cluster)."""
        return self._execute(name, params, RoutingControl.READ)

    def write(self, name: str, /, **params: Any) -> list[Row]:
        """Run one named statement in its own retried write transaction."""
        return self._execute(name, params, RoutingControl.WRITE)

    def read_collected(self, name: str, column: str, /, **params: Any) -> list[Row]:
        """Run a read-only named statement that returns one row holding a list of plain maps.

        Statements that return hundreds of rows (search candidates) collect them into one list
        of maps of plain values (no nodes, relationships or temporal values): the driver decodes
        it in one piece, several times faster than as many records, and it is returned as it
        came, not walked value by value.
        """
        rows = self._execute(name, params, RoutingControl.READ, raw=True)
        return list(rows[0][column]) if rows else []

    def _execute(
        self, name: str, params: Mapping[str, Any], route: RoutingControl, *, raw: bool = False
    ) -> list[Row]:
        chosen = name if name in self._c25_failed else self.statement_name(name)
        q = cypher(chosen)
        bound = _bind(q, params)
        log.debug("%s %s", name, _short(params))
        with translate_errors(name):
            try:
                records, _, _ = again_if_vanished(
                    lambda: self.driver.execute_query(
                        q.text, bound, database_=self.database, routing_=route
                    )
                )
            except nx.Neo4jError as e:
                if chosen == name or not _search_internal_error(e):
                    raise
                # Neo4j 2026.08.1's SEARCH clause can fail with an internal error on some
                # stores (after concurrent deletes): the queryNodes form of the same lookup
                # gives the same answers (filtered after the index); used from now on.
                log.warning("%s: Neo4j SEARCH failed (%s); using its queryNodes form", name, e)
                self._c25_failed.add(name)
                return self._execute(name, params, route, raw=raw)
        if raw:
            return [dict(zip(r.keys(), tuple.__iter__(r), strict=True)) for r in records]
        return [record_data(r) for r in records]

    def write_best_effort(
        self, name: str, /, attempts: int = 10, **params: Any
    ) -> list[Row] | None:
        """Run a bookkeeping write (access counts, access history) that must never fail a read.

        A lock race with a concurrent write (deadlock, lock timeout) or a node that vanished under
        it (a concurrent forget) is retried ``attempts`` times with a growing pause (about 1 s in
        all), not the driver's 30 s of retries; then the write is dropped with a warning and
        ``None`` returned. Other errors are raised as usual.
        """
        q = cypher(self.statement_name(name))
        bound = _bind(q, params)
        for attempt in range(attempts):
            try:
                with (
                    translate_errors(name),
                    self.driver.session(database=self.database) as s,
                    s.begin_transaction() as tx,
                ):
                    rows = [record_data(r) for r in tx.run(q.text, bound)]
                    tx.commit()
                return rows
            except (DatabaseUnavailable, QueryError) as e:
                code = str(getattr(e.__cause__, "code", "") or "")
                if not (code.startswith("Neo.TransientError") or code == VANISHED):
                    raise
                if attempt + 1 == attempts:
                    log.warning("%s dropped after %d lock races: %s", name, attempts, e)
                    return None
                time.sleep(0.02 * (attempt + 1))
        return None

    def autocommit(self, name: str, /, **params: Any) -> list[Row]:
        """Run a named statement in an auto-commit transaction.

        Only for statements that manage their own transactions (``CALL {...} IN TRANSACTIONS``)
        or must not run inside one (schema DDL); these are not retried by the driver.
        """
        q = cypher(self.statement_name(name))
        return self._autocommit_text(q.text, _bind(q, params), name)

    def apply_statements(self, q: CypherQuery, params: Mapping[str, Any]) -> int:
        """Run each statement of a multi-statement file (schema migrations) in auto-commit mode.

        Each statement gets the subset of ``params`` it uses. Returns the number run.
        """
        n = 0
        for stmt in q.statements():
            used = body_params(stmt)
            self._autocommit_text(stmt, {k: v for k, v in params.items() if k in used}, q.name)
            n += 1
        return n

    def _autocommit_text(self, text: str, params: Mapping[str, Any], what: str) -> list[Row]:
        log.debug("autocommit %s %s", what, _short(params))
        with translate_errors(what), self.driver.session(database=self.database) as s:
            result = s.run(text, dict(params))
            return [r.data() for r in result]

    def write_tx(self, fn: Callable[[Tx], T]) -> T:
        """Run ``fn`` in one write transaction (atomic; retried by the driver on transient errors).

        ``fn`` must be idempotent: the driver may call it more than once (and so may
        :func:`again_if_vanished`, when a node it read was deleted under it).
        """
        with translate_errors("transaction"), self.driver.session(database=self.database) as s:
            return again_if_vanished(lambda: s.execute_write(lambda tx: fn(Tx(tx, self))))

    def read_tx(self, fn: Callable[[Tx], T]) -> T:
        """Run ``fn`` in one read transaction (a consistent snapshot for several statements)."""
        with translate_errors("transaction"), self.driver.session(database=self.database) as s:
            return again_if_vanished(lambda: s.execute_read(lambda tx: fn(Tx(tx, self))))

    def write_batches(
        self,
        name: str,
        rows: Iterable[Mapping[str, Any]],
        /,
        *,
        batch_size: int = 1000,
        progress: Callable[[int], None] | None = None,
        **params: Any,
    ) -> list[Row]:
        """Run an ``UNWIND $rows`` statement over ``rows`` in batches, one transaction per batch.

        Each batch commits atomically; the statement must be idempotent (MERGE on keys) so a
        retried or re-run batch changes nothing twice.

        Args:
            name: The statement; it must declare ``$rows``.
            rows: The rows (streamed, never all held at once).
            batch_size: Rows per transaction.
            progress: Called with the number of rows done after each batch.
            **params: Other parameters of the statement.

        Returns:
            The concatenated result rows.
        """
        if batch_size < 1:
            raise InvalidInput("batch_size must be at least 1")
        out: list[Row] = []
        done = 0
        for batch in _chunks(rows, batch_size):

            def run_batch(tx: Tx, b: list[dict[str, Any]] = batch) -> list[Row]:
                return tx.run(name, rows=b, **params)

            out.extend(self.write_tx(run_batch))
            done += len(batch)
            if progress:
                progress(done)
        return out

    # -- analysts' own Cypher -----------------------------------------------------------------
    def run_adhoc(
        self,
        query: str,
        params: Mapping[str, Any] | None = None,
        *,
        write: bool = False,
        allow_load_csv: bool = False,
    ) -> list[Row]:
        """Run the caller's own Cypher, read-only unless ``write`` is true.

        The query is first planned with ``EXPLAIN``. Read-only, its plan must pass the
        allow-lists of :mod:`recollect_graph.db.adhoc` (reading clauses, SHOW INDEXES and the
        like, a few schema and index-query procedures), and it runs in a READ-mode transaction,
        which the server also enforces. With ``write`` it runs in a write transaction; LOAD CSV
        is refused in both modes unless ``allow_load_csv`` (``RECOLLECT_ALLOW_CSV_URLS``).

        Raises:
            ReadOnlyViolation: The query writes and ``write`` is false.
            ForbiddenQuery: It uses a clause, procedure or function outside the allow-list.
            QueryError: Neo4j rejected the query.
        """
        if not query.strip():
            raise InvalidInput("empty query")
        p = dict(params or {})
        with translate_errors("cypher"):
            summary = self.driver.execute_query(
                adhoc.explain_text(query), p, database_=self.database, routing_=RoutingControl.READ
            ).summary
            if adhoc.loads_csv(summary.plan) and not (write and allow_load_csv):
                raise ForbiddenQuery(
                    "cypher: LOAD CSV reads local files and URLs and is refused"
                    + (
                        "; set RECOLLECT_ALLOW_CSV_URLS=true to allow it (files from the import "
                        "directory only)"
                        if write
                        else " in a read-only query"
                    )
                )
            if not write:
                why = adhoc.read_only_refusal(
                    summary.query_type, summary.plan, self._user_functions()
                )
                if why == adhoc.WRITES:
                    raise ReadOnlyViolation(f"cypher: {why}")
                if why:
                    raise ForbiddenQuery(f"cypher: {why}")
            route = RoutingControl.WRITE if write else RoutingControl.READ
            records, _, _ = self.driver.execute_query(
                query, p, database_=self.database, routing_=route
            )
        return [plain_row(r.data()) for r in records]

    def _user_functions(self) -> frozenset[str]:
        """Lower-case names of the functions plugins add (none on the embedded server); cached."""
        if self._udfs is None:
            rows = self.read("admin/plugin_functions")
            self._udfs = frozenset(str(r["name"]).lower() for r in rows)
        return self._udfs


def _chunks(rows: Iterable[Mapping[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    batch: list[dict[str, Any]] = []
    for row in rows:
        batch.append(dict(row))
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def chunks(seq: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    """Split a sequence into slices of at most ``size``."""
    for i in range(0, len(seq), size):
        yield seq[i : i + size]
