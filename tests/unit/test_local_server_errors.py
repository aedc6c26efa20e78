"""Each failure of the embedded default gets one clear line, and nothing is started."""

import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect_graph.cli.main import cli
from recollect_graph.db import launcher_build
from recollect_graph.db.host import free_port, port_free
from recollect_graph.db.launcher_build import (
    NEO4J_VERSION,
    LauncherBuild,
    find_java,
    launcher_fingerprint,
    neo4j_version_in_pom,
)
from recollect_graph.db.server import LocalServer
from recollect_graph.errors import DataDirError, JavaNotFound, MavenNotFound, PortInUse
from tests.helpers import make_settings


@pytest.fixture
def no_java_on_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    empty = tmp_path / "emptybin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setattr(launcher_build, "JVM_DIRS", (str(empty),))


def test_pom_default_is_the_embedded_version() -> None:
    assert neo4j_version_in_pom() == NEO4J_VERSION
    assert NEO4J_VERSION.startswith("2026.")
    assert len(launcher_fingerprint()) == 16


def test_missing_java_is_one_line_with_what_to_do(no_java_on_path: None, tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with pytest.raises(JavaNotFound) as e:
        LocalServer(settings).start()
    msg = str(e.value)
    assert "\n" not in msg
    assert "Java 21+" in msg and "JAVA_HOME" in msg and "docker compose" in msg
    assert "RECOLLECT_NEO4J_VERSION=5.26.30" in msg
    assert not settings.server_home.joinpath("server.json").exists()


def test_missing_java_in_the_cli_prints_no_traceback(no_java_on_path: None, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli,
        ["neo4j", "start"],
        env={"RECOLLECT_DATA_DIR": str(tmp_path / "d"), "RECOLLECT_BOLT_PORT": str(free_port())},
    )
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert result.output.strip().splitlines()[-1].startswith("Error: Java was not found")


def test_old_java_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "java"
    fake.write_text("#!/bin/sh\necho 'openjdk version \"11.0.2\" 2019-01-15' >&2\n")
    fake.chmod(0o755)
    with pytest.raises(
        JavaNotFound, match=r"RECOLLECT_JAVA=.* is Java 11, but Neo4j .* needs Java 21"
    ):
        find_java(make_settings(tmp_path, java=str(fake)))


def test_missing_maven_when_a_build_is_needed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = make_settings(tmp_path, cache_dir=tmp_path / "cache", maven="no-such-mvn-here")
    with pytest.raises(MavenNotFound) as e:
        LauncherBuild(settings).build()
    assert "apt install maven" in str(e.value) and "docker compose" in str(e.value)
    assert not LauncherBuild(settings).is_built()


def test_busy_port_is_reported_before_anything_starts(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert not port_free(port)
        settings = make_settings(tmp_path, bolt_port=port)
        with pytest.raises(PortInUse) as e:
            LocalServer(settings).start()
    assert e.value.port == port
    assert f"port {port} (Bolt)" in str(e.value) and "RECOLLECT_BOLT_PORT" in str(e.value)
    assert not (settings.server_home / "server.json").exists()


def test_busy_browser_port_too(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(PortInUse, match="RECOLLECT_HTTP_PORT"):
            LocalServer(make_settings(tmp_path, http_port=port)).start()


@pytest.mark.parametrize("where", ["under-a-file", "proc"])
def test_unusable_data_directory(tmp_path: Path, where: str) -> None:
    if where == "under-a-file":
        blocker = tmp_path / "a-file"
        blocker.write_text("x")
        data = blocker / "data"
    else:
        data = Path("/proc/recollect-graph-test/data")
    settings = make_settings(tmp_path, data_dir=data)
    with pytest.raises(DataDirError) as e:
        LocalServer(settings).start()
    assert "RECOLLECT_DATA_DIR" in str(e.value)
    assert "\n" not in str(e.value)


def test_status_of_a_server_never_started(tmp_path: Path) -> None:
    st = LocalServer(make_settings(tmp_path)).status()
    assert not st.running and st.pid is None
    assert st.bolt_uri.startswith("bolt://127.0.0.1:")


def test_stop_when_nothing_runs(tmp_path: Path) -> None:
    assert LocalServer(make_settings(tmp_path)).stop() is False
