"""Which Java runs the embedded Neo4j, and which data directories it refuses to open.

The JDKs here are folders shaped like real ones (``release`` file, ``bin/java``); their ``java``
is a script that prints the version line a JDK prints, so no real Java is started.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect_graph.cli.main import cli
from recollect_graph.db import launcher_build
from recollect_graph.db.host import free_port
from recollect_graph.db.launcher_build import (
    NEO4J_LTS_VERSION,
    NEO4J_VERSION,
    LauncherBuild,
    embedded_version,
    find_java,
    java_range,
    jvm_flags,
)
from recollect_graph.db.server import STORE_VERSION_FILE, LocalServer
from recollect_graph.errors import ConfigError, JavaNotFound, StoreVersionMismatch
from tests.helpers import make_settings


def fake_jdk(folder: Path, name: str, version: str, *, release: bool = True) -> Path:
    """A JDK folder whose ``bin/java -version`` reports ``version``."""
    home = folder / name
    (home / "bin").mkdir(parents=True)
    java = home / "bin" / "java"
    java.write_text(f"#!/bin/sh\necho 'openjdk version \"{version}\" 2026-01-20' >&2\n")
    java.chmod(0o755)
    if release:
        (home / "release").write_text(f'IMPLEMENTOR="Test"\nJAVA_VERSION="{version}"\n')
    return java


@pytest.fixture
def jvm(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty JVM folder as the only place Java is looked for (no PATH java, no JAVA_HOME)."""
    folder = tmp_path / "jvm"
    folder.mkdir()
    empty = tmp_path / "emptybin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setattr(launcher_build, "JVM_DIRS", (str(folder),))
    return folder


def test_the_newest_fitting_jdk_is_chosen_for_each_neo4j_version(jvm: Path, tmp_path: Path) -> None:
    fake_jdk(jvm, "java-17-openjdk-amd64", "17.0.15")
    j21 = fake_jdk(jvm, "jdk-21", "21.0.4", release=False)  # no release file: asks java
    j25 = fake_jdk(jvm, "temurin-25-jdk-amd64", "25.0.1")
    settings = make_settings(tmp_path)
    default = find_java(settings)
    assert (default.path, default.major, default.version) == (str(j25), 25, "25.0.1")
    assert default.source == str(jvm)
    # 5.26 LTS supports Java 17 and 21 only: 21 is the newest that fits
    lts = find_java(make_settings(tmp_path, neo4j_version=NEO4J_LTS_VERSION))
    assert (lts.path, lts.major) == (str(j21), 21)


def test_java_home_that_fits_wins_and_one_that_does_not_is_passed_over(
    jvm: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    j17 = fake_jdk(jvm, "jdk-17", "17.0.2")
    j21 = fake_jdk(jvm, "jdk-21", "21.0.4")
    fake_jdk(jvm, "jdk-25", "25.0.1")
    monkeypatch.setenv("JAVA_HOME", str(j21.parent.parent))
    assert find_java(make_settings(tmp_path)).path == str(j21)
    assert find_java(make_settings(tmp_path)).source == "JAVA_HOME"
    monkeypatch.setenv("JAVA_HOME", str(j17.parent.parent))
    assert find_java(make_settings(tmp_path)).major == 25


def test_recollect_java_is_used_as_given_or_refused(jvm: Path, tmp_path: Path) -> None:
    fake_jdk(jvm, "jdk-25", "25.0.1")
    j21 = fake_jdk(tmp_path / "elsewhere", "jdk-21", "21.0.4")
    j17 = fake_jdk(tmp_path / "elsewhere", "jdk-17", "17.0.2")
    chosen = find_java(make_settings(tmp_path, java=str(j21)))
    assert (chosen.path, chosen.source) == (str(j21), "RECOLLECT_JAVA")
    with pytest.raises(JavaNotFound) as e:
        find_java(make_settings(tmp_path, java=str(j17)))
    assert "RECOLLECT_JAVA" in str(e.value) and "Java 17" in str(e.value)
    assert f"Neo4j {NEO4J_VERSION} needs Java 21+" in str(e.value)


def test_no_fitting_jdk_names_what_was_found_and_what_to_install(jvm: Path, tmp_path: Path) -> None:
    j17 = fake_jdk(jvm, "java-17-openjdk-amd64", "17.0.15")
    with pytest.raises(JavaNotFound) as e:
        find_java(make_settings(tmp_path))
    msg = str(e.value)
    assert "\n" not in msg
    assert f"Java 17 at {j17}" in msg
    assert "JDK 21 or 25" in msg and "adoptium.net" in msg
    assert f"RECOLLECT_NEO4J_VERSION={NEO4J_LTS_VERSION}" in msg
    # the LTS fallback runs on that same Java 17
    assert find_java(make_settings(tmp_path, neo4j_version=NEO4J_LTS_VERSION)).path == str(j17)


def test_version_setting_and_java_ranges(tmp_path: Path) -> None:
    assert embedded_version(make_settings(tmp_path)) == NEO4J_VERSION
    assert embedded_version(make_settings(tmp_path, neo4j_version="5.26.30")) == "5.26.30"
    with pytest.raises(ConfigError, match="not supported"):
        embedded_version(make_settings(tmp_path, neo4j_version="4.4.30"))
    assert java_range(NEO4J_VERSION) == (21, None)
    assert java_range(NEO4J_LTS_VERSION) == (17, 21)
    assert "--add-modules=jdk.incubator.vector" in jvm_flags(25)
    assert "--sun-misc-unsafe-memory-access=allow" in jvm_flags(25)
    assert "--sun-misc-unsafe-memory-access=allow" not in jvm_flags(21)
    assert not [f for f in jvm_flags(17) if "incubator" in f or "unsafe" in f]


def test_each_version_builds_into_its_own_folder(tmp_path: Path) -> None:
    new = LauncherBuild(make_settings(tmp_path, cache_dir=tmp_path / "c"))
    old = LauncherBuild(make_settings(tmp_path, cache_dir=tmp_path / "c", neo4j_version="5.26.30"))
    assert new.dir != old.dir
    assert new.dir.name.endswith(NEO4J_VERSION) and old.dir.name.endswith("5.26.30")


def _store(home: Path) -> dict[str, bytes]:
    """A store folder like Neo4j's, and a snapshot of its bytes."""
    db = home / "data" / "databases" / "neo4j"
    db.mkdir(parents=True)
    (db / "neostore").write_bytes(b"\x00store\x01")
    (db / "neostore.nodestore.db").write_bytes(b"nodes" * 100)
    return {str(p): p.read_bytes() for p in home.rglob("*") if p.is_file()}


def _unchanged(home: Path, before: dict[str, bytes]) -> bool:
    after = {str(p): p.read_bytes() for p in home.rglob("*") if p.is_file() and p.name != ".lock"}
    return after == before


def test_a_526_store_is_not_opened_by_neo4j_2026(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    home = settings.server_home
    before = _store(home)
    (home / STORE_VERSION_FILE).write_text("5.26.30\n")
    before[str(home / STORE_VERSION_FILE)] = b"5.26.30\n"
    server = LocalServer(settings)
    with pytest.raises(StoreVersionMismatch) as e:
        server.start()
    msg = str(e.value)
    assert "\n" not in msg
    assert f"Neo4j 5.26.30 store and this server is Neo4j {NEO4J_VERSION}" in msg
    assert "RECOLLECT_NEO4J_VERSION=5.26.30" in msg
    assert "recollect-graph export" in msg and "recollect-graph import" in msg
    assert (e.value.store_version, e.value.server_version) == ("5.26.30", NEO4J_VERSION)
    assert not server.state_file.exists()
    assert _unchanged(home, {k: v for k, v in before.items() if not k.endswith(".lock")})
    # the same store with the 5.26 fallback passes the check (and would be opened)
    LocalServer(make_settings(tmp_path, neo4j_version="5.26.30")).check_store_version()


def test_a_store_from_before_the_version_file_is_dated_by_its_debug_log(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    home = settings.server_home
    _store(home)
    server = LocalServer(settings)
    assert server.store_version() == NEO4J_LTS_VERSION  # no file, no log: 5.26 (all we shipped)
    (home / "logs").mkdir()
    (home / "logs" / "debug.log").write_text(
        "[classpath] /c/neo4j-launcher-x/target/dependency/neo4j-5.26.21.jar\n"
        "[classpath] /c/neo4j-launcher-y/target/dependency/neo4j-5.26.30.jar\n"
    )
    assert server.store_version() == "5.26.30"
    with pytest.raises(StoreVersionMismatch):
        server.check_store_version()


def test_a_2026_store_is_not_opened_by_526_or_an_older_2026(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, neo4j_version="5.26.30")
    home = settings.server_home
    _store(home)
    (home / STORE_VERSION_FILE).write_text(NEO4J_VERSION + "\n")
    with pytest.raises(StoreVersionMismatch, match="RECOLLECT_NEO4J_VERSION=2026"):
        LocalServer(settings).check_store_version()
    with pytest.raises(StoreVersionMismatch):
        LocalServer(make_settings(tmp_path, neo4j_version="2026.01.0")).check_store_version()
    LocalServer(make_settings(tmp_path)).check_store_version()  # same version: fine
    (home / STORE_VERSION_FILE).write_text("2026.05.0\n")
    LocalServer(make_settings(tmp_path)).check_store_version()  # newer 2026 upgrades: fine


def test_the_cli_says_it_in_one_line(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    _store(settings.server_home)
    (settings.server_home / STORE_VERSION_FILE).write_text("5.26.30\n")
    env = {
        "RECOLLECT_DATA_DIR": str(settings.data_dir),
        "RECOLLECT_BOLT_PORT": str(free_port()),
        "RECOLLECT_NEO4J_VERSION": "",
        "PATH": os.environ.get("PATH", ""),
    }
    result = CliRunner().invoke(cli, ["neo4j", "start", "--json"], env=env)
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert '"store_version"' in result.output
