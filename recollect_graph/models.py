"""Frozen records passed between layers. Data only, no behaviour."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    """Base of every record: frozen, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class ServerStatus(Record):
    """State of the embedded Neo4j server.

    Attributes:
        running: A launcher process for this data directory is alive.
        pid: Its process id.
        bolt_uri: The Bolt URI to connect to.
        bolt_port: Bolt port.
        http_port: Neo4j Browser port (0 when Browser is off).
        browser_url: Where to open Neo4j Browser.
        home: Server home (store under ``data/``, logs under ``logs/``).
        version: Neo4j version the server reported.
        started_at: When it became ready.
        uptime_s: Seconds since ``started_at``.
        auth: Whether the server requires a password.
        rss_mb: Resident memory of the server process.
        attached: ``start`` found it already running and attached to it.
        recovered_stale: ``start`` found a pid file of a dead server and cleared it.
        start_seconds: How long ``start`` waited for the server (0 when it attached).
    """

    running: bool
    pid: int | None = None
    bolt_uri: str
    bolt_port: int
    http_port: int
    browser_url: str | None = None
    home: str
    version: str | None = None
    started_at: datetime | None = None
    uptime_s: float | None = None
    auth: bool = True
    rss_mb: float | None = None
    attached: bool = False
    recovered_stale: bool = False
    start_seconds: float | None = None


class Check(Record):
    """One line of ``recollect-graph doctor``."""

    name: str
    status: Literal["ok", "warn", "fail"]
    detail: str
    data: dict[str, Any] = {}


class IndexInfo(Record):
    """One index as ``SHOW INDEXES`` reports it."""

    name: str
    type: str
    entity_type: str | None = None
    labels: list[str] = []
    properties: list[str] = []
    state: str
    population_percent: float | None = None
    dimensions: int | None = None
    similarity: str | None = None


class SchemaReport(Record):
    """What ``init`` applied and the state of the schema afterwards."""

    applied: list[str]
    already_applied: list[str]
    indexes: list[IndexInfo]
    constraints: list[str]
    embedding_model: str
    dimensions: int
    seconds: float
