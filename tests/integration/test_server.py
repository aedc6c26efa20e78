"""The embedded default as a user meets it: start, attach, status, Browser, auth, crash recovery."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from recollect_graph import Recollect, Settings
from recollect_graph.db.client import Db
from recollect_graph.db.host import ensure_password
from recollect_graph.db.launcher_build import LauncherBuild
from recollect_graph.db.server import STORE_VERSION_FILE, LocalServer
from recollect_graph.errors import AuthFailed
from recollect_graph.models import ServerStatus
from tests.helpers import make_settings


def test_second_start_attaches_to_the_same_server(
    neo4j_server: ServerStatus, server_settings: Settings
) -> None:
    again = LocalServer(server_settings).start()
    assert again.attached
    assert again.pid == neo4j_server.pid


def test_status_reports_what_a_user_needs(
    neo4j_server: ServerStatus, server_settings: Settings
) -> None:
    st = LocalServer(server_settings).status()
    assert st.running
    assert st.pid == neo4j_server.pid
    assert st.bolt_uri == f"bolt://127.0.0.1:{server_settings.bolt_port}"
    # the version asked for (2026 by default, 5.26 in make test-526), recorded with the store
    assert st.version == LauncherBuild(server_settings).version
    assert (server_settings.server_home / STORE_VERSION_FILE).read_text().strip() == st.version
    assert st.home == str(server_settings.server_home)
    assert st.uptime_s is not None and st.uptime_s >= 0
    assert st.rss_mb and st.rss_mb > 50


def _listening() -> dict[int, set[str]]:
    """Port -> local addresses of LISTEN sockets (IPv4 and IPv6 tables)."""
    out: dict[int, set[str]] = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            parts = line.split()
            if parts[3] == "0A":  # LISTEN
                ip_hex, port_hex = parts[1].split(":")
                out.setdefault(int(port_hex, 16), set()).add(ip_hex)
    return out


LOOPBACK = {"0100007F", "0000000000000000FFFF00000100007F"}  # 127.0.0.1, ::ffff:127.0.0.1


def test_server_listens_on_loopback_only(neo4j_server: ServerStatus) -> None:
    listening = _listening()
    assert listening[neo4j_server.bolt_port] <= LOOPBACK
    assert listening[neo4j_server.http_port] <= LOOPBACK


def test_browser_lands_with_the_bolt_url_filled_in(neo4j_server: ServerStatus) -> None:
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a: object, **k: object) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    with pytest.raises(urllib.error.HTTPError) as e:
        opener.open(f"http://127.0.0.1:{neo4j_server.http_port}/")
    assert e.value.code == 302
    location = e.value.headers["Location"]
    assert location.startswith("/browser/?connectURL=")
    assert f"127.0.0.1%3A{neo4j_server.bolt_port}" in location
    with urllib.request.urlopen(f"http://127.0.0.1:{neo4j_server.http_port}/browser/") as r:
        page = r.read().decode()
        assert r.headers["Content-Type"].startswith("text/html")
    assert "<html" in page.lower() and "neo4j" in page.lower()
    req = urllib.request.Request(
        f"http://127.0.0.1:{neo4j_server.http_port}/", headers={"Accept": "application/json"}
    )
    with urllib.request.urlopen(req) as r:
        discovery = json.loads(r.read())
    assert discovery["bolt_direct"] == neo4j_server.bolt_uri
    with pytest.raises(urllib.error.HTTPError) as e404:
        urllib.request.urlopen(
            f"http://127.0.0.1:{neo4j_server.http_port}/browser/../../etc/passwd"
        )
    assert e404.value.code in (400, 404)


def test_auth_is_on_with_a_private_generated_password(
    neo4j_server: ServerStatus, server_settings: Settings
) -> None:
    pw_file = server_settings.password_file
    assert stat.S_IMODE(pw_file.stat().st_mode) == 0o600
    assert len(ensure_password(server_settings)) >= 20
    with pytest.raises(AuthFailed):
        Db.connect(neo4j_server.bolt_uri, user="neo4j", password="wrong-password")
    with pytest.raises(AuthFailed):
        Db.connect(neo4j_server.bolt_uri, user="neo4j", password=None)


def test_external_uri_never_starts_a_local_server(
    neo4j_server: ServerStatus, server_settings: Settings, tmp_path: Path
) -> None:
    other = make_settings(
        tmp_path,
        neo4j_uri=neo4j_server.bolt_uri,
        neo4j_password=ensure_password(server_settings),
    )
    with Recollect.open(other) as rg:
        assert rg.query("RETURN 1 AS one") == [{"one": 1}]
        assert rg.server is None
    assert not other.server_home.exists()


def _launchers_for(home: Path) -> list[int]:
    pids = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                cmd = (proc / "cmdline").read_bytes()
            except OSError:
                continue
            if b"org.recollectgraph.launcher.Launcher" in cmd and str(home).encode() in cmd:
                pids.append(int(proc.name))
    return pids


def test_kill_9_then_start_recovers_with_committed_data(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, local_auth=False)  # the explicit no-auth throwaway mode
    server = LocalServer(settings)
    try:
        # two starts racing from two processes: one server
        cmd = [sys.executable, "-m", "recollect_graph.cli.main", "neo4j", "start", "--json"]
        env = {
            **os.environ,
            "RECOLLECT_DATA_DIR": str(settings.data_dir),
            "RECOLLECT_CONFIG_DIR": str(settings.config_dir),
            "RECOLLECT_BOLT_PORT": str(settings.bolt_port),
            "RECOLLECT_HTTP_PORT": str(settings.http_port),
            "RECOLLECT_NEO4J_AUTH": "false",
            "RECOLLECT_HEAP_MB": "768",
            "RECOLLECT_PAGECACHE_MB": "128",
        }
        procs = [
            subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, text=True) for _ in range(2)
        ]
        outs = [json.loads(p.communicate(timeout=180)[0]) for p in procs]
        assert all(p.returncode == 0 for p in procs)
        assert outs[0]["pid"] == outs[1]["pid"]
        assert sorted(o["attached"] for o in outs) == [False, True]
        assert _launchers_for(settings.server_home) == [outs[0]["pid"]]

        with Db.connect(f"bolt://127.0.0.1:{settings.bolt_port}", user=None, password=None) as db:
            db.run_adhoc("CREATE (:CrashProbe {id: 'committed-before-crash'})", write=True)
        os.kill(outs[0]["pid"], signal.SIGKILL)
        deadline = time.monotonic() + 30
        while server.status().running and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not server.status().running
        assert (settings.server_home / "server.json").exists()  # the stale pid file is still there

        st = server.start()
        assert st.running and st.recovered_stale and not st.attached
        assert st.pid != outs[0]["pid"]
        with Db.connect(st.bolt_uri, user=None, password=None) as db:
            rows = db.run_adhoc("MATCH (p:CrashProbe) RETURN p.id AS id")
        assert rows == [{"id": "committed-before-crash"}]
    finally:
        server.stop()
    assert not server.status().running
    assert _launchers_for(settings.server_home) == []


def test_bolt_port_speaks_websocket_for_browser(neo4j_server: ServerStatus) -> None:
    """Neo4j Browser (served over http://) reaches the database with ws:// on the Bolt port."""
    import base64
    import socket

    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{neo4j_server.bolt_port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Origin: http://127.0.0.1:{neo4j_server.http_port}\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", neo4j_server.bolt_port), timeout=10) as s:
        s.sendall(request.encode())
        reply = s.recv(1024).decode(errors="replace")
    assert reply.startswith("HTTP/1.1 101"), reply
    assert "upgrade: websocket" in reply.lower()
