"""The Streamable HTTP transport: one warm server on loopback for many MCP clients.

Every request must carry ``Authorization: Bearer <token>``; the token lives in the config
directory (``mcp-token``, created with mode 0600 when missing). A request whose ``Origin`` is not
a localhost origin is refused (a web page cannot drive the server through DNS rebinding), and the
SDK's own check refuses a ``Host`` that is not the bound address. Refusals are JSON
``{"error": {"code", "message"}}`` with status 401 or 403.
"""

from __future__ import annotations

import hmac
import json
import logging
import os
import secrets
import stat
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer
    from starlette.types import ASGIApp, Receive, Scope, Send

log = logging.getLogger(__name__)

#: The token file's name in the config directory.
TOKEN_FILE = "mcp-token"
#: Host names that count as this machine.
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})


def token_path(config_dir: Path) -> Path:
    """Where the bearer token lives."""
    return config_dir / TOKEN_FILE


def load_or_create_token(config_dir: Path) -> str:
    """The bearer token from ``config_dir``, created (mode 0600) when missing.

    Example:
        >>> import tempfile
        >>> len(load_or_create_token(Path(tempfile.mkdtemp()))) >= 32
        True
    """
    path = token_path(config_dir)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # created meanwhile by another server: use that one
            pass
        else:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_urlsafe(32) + "\n")
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        log.warning("%s is readable by others (mode %o); chmod 600 it", path, mode)
    token = path.read_text(encoding="utf-8").strip()
    if len(token) < 16:
        from recollect_graph.errors import ConfigError

        raise ConfigError(f"{path} holds no usable token (16+ characters); delete it to renew")
    return token


def is_local_origin(origin: str) -> bool:
    """Whether an ``Origin`` header names this machine (``http(s)://localhost[:port]``...)."""
    try:
        parts = urlsplit(origin)
        host = parts.hostname
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and host in LOCAL_HOSTS


class Guard:
    """ASGI middleware: the Origin check, then the bearer token, on every HTTP request."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse a foreign origin (403) or a missing/wrong token (401); else pass through."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v for k, v in scope.get("headers", [])}
        origin = headers.get("origin")
        if origin is not None and not is_local_origin(origin.decode("latin-1")):
            log.warning("refused a request from origin %r", origin.decode("latin-1"))
            await _refuse(send, 403, "forbidden_origin", "only localhost origins may call")
            return
        given = headers.get("authorization", b"")
        if not hmac.compare_digest(given, self._expected):
            await _refuse(send, 401, "unauthorized", "missing or wrong bearer token")
            return
        await self.app(scope, receive, send)


async def _refuse(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="recollect-graph"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def app(server: MCPServer, token: str, host: str) -> ASGIApp:
    """The guarded Streamable HTTP app at ``/mcp``."""
    from mcp.server.transport_security import TransportSecuritySettings

    hosts = sorted({host, *LOCAL_HOSTS})
    allowed = [f"[{h}]:*" if ":" in h else f"{h}:*" for h in hosts] + hosts
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=allowed,
        allowed_origins=[f"{scheme}://{h}" for scheme in ("http", "https") for h in allowed],
    )
    inner = server.streamable_http_app(host=host, transport_security=security)
    return Guard(inner, token)


def run(server: MCPServer, *, token: str, host: str, port: int) -> None:
    """Serve ``server`` over Streamable HTTP at ``http://host:port/mcp`` until interrupted."""
    import uvicorn

    config = uvicorn.Config(
        app(server, token, host), host=host, port=port, log_level="warning", lifespan="on"
    )
    uvicorn.Server(config).run()
