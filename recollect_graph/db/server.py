"""The embedded default: a local Neo4j Community server the package manages itself.

``LocalServer(settings).start()`` builds the launcher if needed (once per machine), starts it
detached with Bolt on 127.0.0.1 and the data under ``settings.data_dir``, waits until the database
answers, and records the process in ``<home>/server.json``. A second ``start`` attaches to the
running server; a state file left by a server that died (kill -9) is detected and cleared, and
Neo4j's transaction log recovery brings back everything that was committed.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import re
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from recollect_graph.db.host import ensure_password, port_free, rss_mb, wait_gone
from recollect_graph.db.launcher_build import (
    LAUNCHER_CLASS,
    NEO4J_LTS_VERSION,
    LauncherBuild,
    Tool,
    find_java,
    jvm_flags,
    parse_neo4j_version,
)
from recollect_graph.errors import (
    DataDirError,
    PortInUse,
    RecollectError,
    ServerError,
    StoreVersionMismatch,
)
from recollect_graph.models import ServerStatus
from recollect_graph.settings import Settings

log = logging.getLogger(__name__)

_DOCKER_HINT = "or run Neo4j with `docker compose up -d --wait` and set NEO4J_URI"
Progress = Callable[[str], None]
#: File in the server home naming the Neo4j version that last opened the store.
STORE_VERSION_FILE = "neo4j-version"
_JAR_VERSION = re.compile(r"[/\\]neo4j-(\d+\.\d+\.\d+)\.jar")


def _quiet(_msg: str) -> None:
    return None


class LocalServer:
    """Builds, starts, stops and reports on the embedded Neo4j for one settings object.

    Example:
        >>> server = LocalServer(Settings.from_env())
        >>> status = server.start(progress=print)  # doctest: +SKIP
        >>> status.bolt_uri  # doctest: +SKIP
        'bolt://127.0.0.1:7687'
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.home = settings.server_home
        self.build = LauncherBuild(settings)

    # -- files -------------------------------------------------------------------------------
    @property
    def state_file(self) -> Path:
        """JSON record of the running server (pid, ports, start time)."""
        return self.home / "server.json"

    @property
    def log_file(self) -> Path:
        """The launcher's stdout/stderr."""
        return self.home / "logs" / "launcher.log"

    @property
    def debug_log(self) -> Path:
        """Neo4j's own debug log."""
        return self.home / "logs" / "debug.log"

    def _read_state(self) -> dict[str, Any] | None:
        try:
            data = json.loads(self.state_file.read_text())
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def _write_state(self, state: dict[str, Any]) -> None:
        tmp = self.state_file.with_suffix(".tmp")
        tmp.write_text(json.dumps(state, indent=2))
        tmp.replace(self.state_file)

    @contextlib.contextmanager
    def _lock(self) -> Iterator[None]:
        """Serialise start/stop across processes for this data directory."""
        self.home.mkdir(parents=True, exist_ok=True)
        with (self.home / ".lock").open("w") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)

    def _is_ours(self, pid: int) -> bool:
        """True when ``pid`` is alive and is our launcher for this home."""
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            return False
        if Path(f"/proc/{pid}/stat").exists():
            with contextlib.suppress(OSError, IndexError):
                if Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z"):
                    return False  # a zombie is a dead server whose parent has not reaped it
        return LAUNCHER_CLASS.encode() in cmd and str(self.home).encode() in cmd

    # -- status ------------------------------------------------------------------------------
    def status(self) -> ServerStatus:
        """Report whether the server runs, with pid, ports, data directory, version and uptime."""
        state = self._read_state()
        running = bool(state and self._is_ours(int(state.get("pid", 0))))
        return self._status_from(state if running else None, running=running)

    def _status_from(
        self, state: dict[str, Any] | None, *, running: bool, **extra: Any
    ) -> ServerStatus:
        s = state or {}
        bolt_port = int(s.get("bolt_port", self.settings.bolt_port))
        http_port = int(s.get("http_port", self.settings.http_port))
        started = datetime.fromisoformat(s["started_at"]) if s.get("started_at") else None
        pid = int(s["pid"]) if running and s.get("pid") else None
        return ServerStatus(
            running=running,
            pid=pid,
            bolt_uri=f"bolt://127.0.0.1:{bolt_port}",
            bolt_port=bolt_port,
            http_port=http_port,
            browser_url=f"http://127.0.0.1:{http_port}/" if http_port else None,
            home=str(self.home),
            version=s.get("version"),
            started_at=started,
            uptime_s=(
                round((datetime.now(UTC) - started).total_seconds(), 1)
                if running and started
                else None
            ),
            auth=bool(s.get("auth", self.settings.local_auth)),
            rss_mb=rss_mb(pid) if pid else None,
            **extra,
        )

    # -- start -------------------------------------------------------------------------------
    def _check_data_dir(self) -> None:
        try:
            (self.home / "logs").mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise DataDirError(
                f"cannot create the data directory {self.home} ({e.strerror}): "
                f"set RECOLLECT_DATA_DIR to a writable directory, {_DOCKER_HINT}"
            ) from e
        for path in (self.home, self.home / "logs", self.home / "data"):
            if path.exists() and not os.access(path, os.R_OK | os.W_OK | os.X_OK):
                raise DataDirError(
                    f"the data directory {path} is not readable and writable by this user: "
                    f"fix its permissions or set RECOLLECT_DATA_DIR, {_DOCKER_HINT}"
                )

    def _check_ports(self, *, grace_s: float = 0.0) -> None:
        for port, name, var in (
            (self.settings.bolt_port, "Bolt", "RECOLLECT_BOLT_PORT"),
            (self.settings.http_port, "Browser", "RECOLLECT_HTTP_PORT"),
        ):
            deadline = time.monotonic() + grace_s
            while port and not port_free(port) and time.monotonic() < deadline:
                time.sleep(0.2)  # a crashed server's sockets can outlive its pid briefly
            if port and not port_free(port):
                raise PortInUse(
                    f"port {port} ({name}) on 127.0.0.1 is in use by another process: stop it, "
                    f"or choose another port with {var}, {_DOCKER_HINT}",
                    port=port,
                )

    def start(
        self, *, progress: Progress | None = None, watch_pid: int | None = None
    ) -> ServerStatus:
        """Start the server, or attach to the one already running for this data directory.

        Args:
            progress: Called with short status lines (the CLI shows them).
            watch_pid: If given, the server exits when that process exits (test servers).

        Returns:
            The server's status once Bolt answers.

        Raises:
            JavaNotFound, MavenNotFound, PortInUse, DataDirError: With one line saying what to do.
            ServerError: The server did not become ready (the message names the log).
        """
        say = progress or _quiet
        self._check_data_dir()
        with self._lock():
            state = self._read_state()
            recovered = False
            if state:
                if self._is_ours(int(state.get("pid", 0))):
                    log.info("Neo4j already running (pid %s), attaching", state["pid"])
                    if bool(state.get("allow_csv_urls")) != self.settings.allow_csv_urls:
                        log.warning(
                            "the running server was started with RECOLLECT_ALLOW_CSV_URLS=%s; "
                            "restart it (neo4j stop, then start) to apply the current value",
                            "true" if state.get("allow_csv_urls") else "false",
                        )
                    return self._status_from(state, running=True, attached=True)
                say(f"found a stale pid file (pid {state.get('pid')} is gone); recovering")
                wait_gone(int(state.get("pid", 0)))
                self.state_file.unlink(missing_ok=True)
                recovered = True
            self.check_store_version()
            java = find_java(self.settings, self.build.version)
            self._check_ports(grace_s=10.0 if recovered else 0.0)
            if not self.build.is_built():
                self.build.build(progress=say)
            return self._launch(java, say, watch_pid, recovered)

    # -- store version -------------------------------------------------------------------------
    def store_version(self) -> str | None:
        """The Neo4j version that last opened this home's store; None when there is no store.

        Read from ``<home>/neo4j-version`` (written at each start); a store made before that file
        existed is dated by the ``neo4j-X.Y.Z.jar`` its debug.log lists, and failing that is
        taken to be 5.26 (the only version earlier releases of this package embedded).
        """
        marker = self.home / STORE_VERSION_FILE
        if marker.is_file():
            text = marker.read_text(errors="replace").strip()
            if text:
                return text
        if not (self.home / "data" / "databases" / "neo4j").is_dir():
            return None
        try:
            found = _JAR_VERSION.findall(self.debug_log.read_text(errors="replace"))
        except OSError:
            found = []
        return found[-1] if found else NEO4J_LTS_VERSION

    def check_store_version(self) -> None:
        """Refuse to open a store written by another Neo4j line (before anything is started).

        A 5.26 store is upgraded in place by Neo4j 2025+ (and 5.26 cannot open it again), and a
        2026 store cannot be opened by 5.26, or by an older 2026 release; none of them is opened.

        Raises:
            StoreVersionMismatch: With the commands that move the data across (export, import).
        """
        have = self.store_version()
        want = self.build.version
        if have is None or have == want:
            return
        try:
            h, w = parse_neo4j_version(have), parse_neo4j_version(want)
        except RecollectError:
            return
        same_line = (h[0] == 5) == (w[0] == 5)
        if same_line and (h[0] == 5 or h <= w):
            return
        env = f"RECOLLECT_NEO4J_VERSION={have}"
        raise StoreVersionMismatch(
            f"the data directory {self.home} holds a Neo4j {have} store and this server is Neo4j "
            f"{want}: it was not opened (Neo4j cannot move a store between these versions and "
            f"keep it usable by both). Keep using it with {env}, or move the data: with {env} run "
            "`recollect-graph export --scope SCOPE --out SCOPE.jsonl` for each scope, then, with "
            "a new RECOLLECT_DATA_DIR (or this one moved aside), `recollect-graph init` and "
            "`recollect-graph import SCOPE.jsonl`",
            store_version=have,
            server_version=want,
        )

    def _launch(
        self, java: Tool, say: Progress, watch_pid: int | None, recovered: bool
    ) -> ServerStatus:
        cfg = self.settings
        env = dict(os.environ)
        if cfg.local_auth:
            env["RECOLLECT_NEO4J_PASSWORD"] = ensure_password(cfg)
        xms = min(512, cfg.heap_mb)
        say(f"using Java {java.version} at {java.path} (from {java.source})")
        cmd = [
            java.path,
            f"-Xms{xms}m",
            f"-Xmx{cfg.heap_mb}m",
            *jvm_flags(java.major),
            "-cp",
            self.build.classpath(),
            LAUNCHER_CLASS,
            "--home",
            str(self.home),
            "--host",
            "127.0.0.1",
            "--bolt-port",
            str(cfg.bolt_port),
            "--http-port",
            str(cfg.http_port),
            "--page-cache-mb",
            str(cfg.pagecache_mb),
            "--auth",
            "true" if cfg.local_auth else "false",
            "--allow-csv-urls",
            "true" if cfg.allow_csv_urls else "false",
        ]
        if watch_pid:
            cmd += ["--watch-pid", str(watch_pid)]
        say(f"starting Neo4j (Bolt 127.0.0.1:{cfg.bolt_port}, data in {self.home})")
        t0 = time.monotonic()
        offset = self.log_file.stat().st_size if self.log_file.exists() else 0
        with self.log_file.open("ab") as out:
            proc = subprocess.Popen(
                cmd,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                cwd=self.home,
                start_new_session=True,
            )
        state: dict[str, Any] = {
            "pid": proc.pid,
            "bolt_port": cfg.bolt_port,
            "http_port": cfg.http_port,
            "auth": cfg.local_auth,
            "allow_csv_urls": cfg.allow_csv_urls,
            "home": str(self.home),
        }
        self._write_state(state)
        version = self._wait_ready(proc, offset, t0, say)
        (self.home / STORE_VERSION_FILE).write_text(version + "\n")
        state.update(version=version, java=java.path, started_at=datetime.now(UTC).isoformat())
        self._write_state(state)
        took = round(time.monotonic() - t0, 2)
        say(f"Neo4j {version} ready in {took:.1f}s")
        return self._status_from(state, running=True, recovered_stale=recovered, start_seconds=took)

    def _wait_ready(
        self, proc: subprocess.Popen[bytes], offset: int, t0: float, say: Progress
    ) -> str:
        deadline = t0 + self.settings.start_timeout_s
        next_note = t0 + 10
        while True:
            text = self._log_since(offset)
            for line in text.splitlines():
                if line.startswith("NEO4J_READY"):
                    m = dict(p.split("=", 1) for p in line.split()[1:] if "=" in p)
                    return m.get("version", "unknown")
                if line.startswith("NEO4J_FAILED"):
                    self._reap(proc)
                    raise self._failure(line.removeprefix("NEO4J_FAILED").strip())
            if proc.poll() is not None:
                self.state_file.unlink(missing_ok=True)
                tail = " | ".join(text.strip().splitlines()[-3:])
                raise ServerError(
                    f"Neo4j exited with code {proc.returncode} while starting ({tail[:300]}); "
                    f"see {self.log_file}"
                )
            now = time.monotonic()
            if now > deadline:
                self._reap(proc)
                raise ServerError(
                    f"Neo4j did not answer within {self.settings.start_timeout_s:.0f}s; "
                    f"see {self.log_file} and {self.debug_log} "
                    "(raise RECOLLECT_START_TIMEOUT on a slow machine)"
                )
            if now > next_note:
                say(f"still starting ({now - t0:.0f}s)...")
                next_note = now + 10
            time.sleep(0.2)

    def _log_since(self, offset: int) -> str:
        try:
            with self.log_file.open("rb") as f:
                f.seek(offset)
                return f.read().decode(errors="replace")
        except OSError:
            return ""

    def _reap(self, proc: subprocess.Popen[bytes]) -> None:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.state_file.unlink(missing_ok=True)

    def _failure(self, reason: str) -> ServerError:
        low = reason.lower()
        if "address already in use" in low or ("port" in low and "not free" in low):
            port = self.settings.http_port if "browser" in low else self.settings.bolt_port
            return PortInUse(
                f"port {port} on 127.0.0.1 is in use by another process: stop it, or choose "
                f"another with RECOLLECT_BOLT_PORT / RECOLLECT_HTTP_PORT, {_DOCKER_HINT}",
                port=port,
            )
        if "lock" in low and "store" in low:
            return DataDirError(
                f"the data directory {self.home} is locked by another Neo4j process: stop it, "
                f"or set RECOLLECT_DATA_DIR to another directory"
            )
        if "permission" in low or "access denied" in low or "accessdenied" in low:
            return DataDirError(
                f"Neo4j cannot use the data directory {self.home} ({reason[:200]}): fix its "
                "permissions or set RECOLLECT_DATA_DIR"
            )
        return ServerError(f"Neo4j did not start: {reason[:300]}; see {self.log_file}")

    # -- stop --------------------------------------------------------------------------------
    def stop(self, *, timeout_s: float = 60.0, progress: Progress | None = None) -> bool:
        """Shut the server down cleanly (SIGTERM; SIGKILL only after ``timeout_s``).

        Returns:
            True when a running server was stopped, False when none was running.
        """
        say = progress or _quiet
        with self._lock():
            state = self._read_state()
            if not state or not self._is_ours(int(state.get("pid", 0))):
                self.state_file.unlink(missing_ok=True)
                return False
            pid = int(state["pid"])
            say(f"stopping Neo4j (pid {pid})")
            os.kill(pid, signal.SIGTERM)
            deadline = time.monotonic() + timeout_s
            while self._is_ours(pid) and time.monotonic() < deadline:
                time.sleep(0.2)
            if self._is_ours(pid):
                log.warning("Neo4j did not stop within %ss; killing pid %s", timeout_s, pid)
                os.kill(pid, signal.SIGKILL)
                while self._is_ours(pid):
                    time.sleep(0.1)
            self.state_file.unlink(missing_ok=True)
            say("stopped")
            return True

    # -- logs --------------------------------------------------------------------------------
    def logs(self, lines: int = 50, *, debug: bool = False) -> list[str]:
        """The last ``lines`` lines of the launcher log (or Neo4j's debug.log)."""
        path = self.debug_log if debug else self.log_file
        try:
            text = path.read_text(errors="replace")
        except OSError:
            return []
        return text.splitlines()[-lines:]
