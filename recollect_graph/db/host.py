"""What the embedded server needs of the host: its password file, free ports, its processes."""

from __future__ import annotations

import os
import secrets
import socket
import time
from pathlib import Path

from recollect_graph.settings import Settings


def ensure_password(settings: Settings) -> str:
    """Return the embedded server's password, generating it on first use.

    The password lives in ``settings.password_file`` with mode 0600 (directory 0700).
    """
    path = settings.password_file
    if path.is_file():
        pw = path.read_text().strip()
        if len(pw) >= 8:
            return pw
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    pw = secrets.token_urlsafe(24)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(pw + "\n")
    os.chmod(path, 0o600)
    return pw


def port_free(port: int, host: str = "127.0.0.1") -> bool:
    """True when nothing listens on ``host:port``."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def free_port() -> int:
    """A port on 127.0.0.1 that is free right now (for tests and throwaway servers)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_gone(pid: int, timeout_s: float = 15.0) -> None:
    """Wait until a (killed) process has fully exited or is a zombie."""
    deadline = time.monotonic() + timeout_s
    while pid > 0 and time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split(") ")[1][:1]
        except (OSError, IndexError):
            return
        if state in ("Z", "X"):
            return
        time.sleep(0.1)


def rss_mb(pid: int) -> float | None:
    """A process's resident memory in MB (None when it cannot be read)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None
