"""Test session fixtures.

Integration tests talk to a real Neo4j: the embedded default, started once per test session in a
temporary directory on free ports (auth on, as users get it), and stopped at the end. The server
watches the pytest process, so a killed test run does not leave a JVM behind.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest

from recollect_graph import Recollect, Settings
from recollect_graph.db.server import LocalServer
from recollect_graph.models import ServerStatus
from tests.helpers import make_settings

os.environ.setdefault("HF_HUB_OFFLINE", "1")
# Keep the tests off the developer's own server and settings.
for var in ("NEO4J_URI", "NEO4J_USER", "NEO4J_PASSWORD", "NEO4J_DATABASE"):
    os.environ.pop(var, None)


@pytest.fixture(scope="session")
def server_settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    return make_settings(tmp_path_factory.mktemp("neo4j"))


@pytest.fixture(scope="session")
def neo4j_server(server_settings: Settings) -> Iterator[ServerStatus]:
    server = LocalServer(server_settings)
    status = server.start(watch_pid=os.getpid())
    yield status
    server.stop()


@pytest.fixture(scope="session")
def rg(neo4j_server: ServerStatus, server_settings: Settings) -> Iterator[Recollect]:
    with Recollect.open(server_settings) as r:
        yield r


@pytest.fixture
def scope_id() -> str:
    """A fresh scope per test: tests isolate themselves by scope."""
    return f"test-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def cli_env(
    server_settings: Settings, neo4j_server: ServerStatus, monkeypatch: pytest.MonkeyPatch
) -> Settings:
    """Environment that points the CLI at the session's server."""
    monkeypatch.setenv("RECOLLECT_DATA_DIR", str(server_settings.data_dir))
    monkeypatch.setenv("RECOLLECT_CONFIG_DIR", str(server_settings.config_dir))
    monkeypatch.setenv("RECOLLECT_BOLT_PORT", str(server_settings.bolt_port))
    monkeypatch.setenv("RECOLLECT_HTTP_PORT", str(server_settings.http_port))
    monkeypatch.setenv("RECOLLECT_HEAP_MB", str(server_settings.heap_mb))
    monkeypatch.setenv("RECOLLECT_PAGECACHE_MB", str(server_settings.pagecache_mb))
    if server_settings.neo4j_version:
        monkeypatch.setenv("RECOLLECT_NEO4J_VERSION", server_settings.neo4j_version)
    return server_settings
