"""The async database client: the same named statements over the driver's async API.

:class:`AsyncDb` runs ``cypher/`` files exactly as :class:`recollect_graph.db.client.Db` does
(the same loader, the same parameter check, the same rows and error types), with
``neo4j.AsyncGraphDatabase``; :class:`recollect_graph.aio.AsyncRecollect` is built on it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

from neo4j import AsyncDriver, AsyncGraphDatabase, RoutingControl
from neo4j import exceptions as nx

from recollect_graph.db.client import VANISHED, VANISHED_ATTEMPTS, _bind, translate_errors
from recollect_graph.db.queries import cypher
from recollect_graph.db.records import Row, record_data

log = logging.getLogger(__name__)


class AsyncDb:
    """Owns an async driver connected to one database; runs the project's named statements.

    Args:
        driver: An open async driver (closed by :meth:`close`).
        database: The database name (``neo4j`` on Community).
    """

    def __init__(self, driver: AsyncDriver, database: str = "neo4j") -> None:
        self.driver = driver
        self.database = database

    @classmethod
    async def connect(
        cls, uri: str, *, user: str | None, password: str | None, database: str = "neo4j"
    ) -> AsyncDb:
        """Open an async driver and check that the server answers.

        Raises:
            AuthFailed: The credentials were refused.
            DatabaseUnavailable: Nothing answers at ``uri``.
        """
        auth = (user or "neo4j", password) if password else None
        driver = AsyncGraphDatabase.driver(
            uri,
            auth=auth,
            max_transaction_retry_time=30.0,
            connection_acquisition_timeout=60.0,
            user_agent="recollect-graph",
            notifications_min_severity="OFF",
        )
        try:
            with translate_errors("connect"):
                await driver.verify_connectivity()
                await driver.execute_query("RETURN 1", database_=database)
        except BaseException:
            await driver.close()
            raise
        return cls(driver, database)

    async def close(self) -> None:
        """Close the driver."""
        await self.driver.close()

    async def read(self, name: str, /, **params: Any) -> list[Row]:
        """Run a read-only named statement (routed to readers on a cluster)."""
        return await self._execute(name, params, RoutingControl.READ)

    async def write(self, name: str, /, **params: Any) -> list[Row]:
        """Run one named statement in its own retried write transaction."""
        return await self._execute(name, params, RoutingControl.WRITE)

    async def _execute(
        self, name: str, params: Mapping[str, Any], route: RoutingControl
    ) -> list[Row]:
        q = cypher(name)
        bound = _bind(q, params)
        log.debug("async %s", name)
        with translate_errors(name):
            for attempt in range(1, VANISHED_ATTEMPTS + 1):
                try:
                    records, _, _ = await self.driver.execute_query(
                        q.text, bound, database_=self.database, routing_=route
                    )
                    break
                except nx.Neo4jError as e:  # a node vanished under it: see again_if_vanished
                    if e.code != VANISHED or attempt == VANISHED_ATTEMPTS:
                        raise
                    await asyncio.sleep(0.005 * attempt)
        return [record_data(r) for r in records]
