"""Serve recollect-graph's Browser guide and style to any Neo4j Browser (Docker, Aura, a server).

The embedded server's launcher serves them itself; a Browser of another deployment fetches them
from this small HTTP server on ``127.0.0.1`` instead. Browser plays a remote guide only from a
host its ``browser.remote_content_hostname_whitelist`` allows (``localhost`` is allowed by
default), so the URLs name ``localhost``. The files are public and read-only: any origin may read
them (CORS), nothing else is served.

Example:
    >>> server = GuideServer(port=0)  # doctest: +SKIP
    >>> server.play_command()  # doctest: +SKIP
    ':play http://localhost:41234/guides/recollect.html'
"""

from __future__ import annotations

import io
import threading
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from recollect_graph.db.queries import cypher, cypher_root

#: The guide and style the launcher serves (``{{BASE}}`` is replaced by this server's base URL).
GUIDES = Path(__file__).resolve().parents[1] / "db" / "launcher" / "src" / "main" / "resources"
GUIDES = GUIDES / "guides"
#: The files served, by name, with their content type.
FILES = {
    "recollect.html": "text/html; charset=utf-8",
    "style.grass": "text/plain; charset=utf-8",
    "favourites.zip": "application/zip",
}


def saved_queries() -> dict[str, str]:
    """The saved Browser queries (``cypher/browser/*.cypher``) as Browser favourites.

    Each becomes ``<name>.cypher`` whose first line is the comment Browser shows as the
    favourite's name (``// recollect-graph: <name>``), then what it does and the statement.
    """
    out = {}
    for entry in sorted(cypher_root().joinpath("browser").iterdir(), key=lambda t: t.name):
        if not entry.name.endswith(".cypher"):
            continue
        name = entry.name.removesuffix(".cypher")
        q = cypher(f"browser/{name}")
        params = ", ".join(f"${p}" for p in sorted(q.params)) or "none"
        out[f"{name}.cypher"] = (
            f"// recollect-graph: {name.replace('_', ' ')}\n// parameters: {params}"
            f" (set one with :param scope => 'demo')\n{q.text.strip()}\n"
        )
    return out


def favourites_zip() -> bytes:
    """The saved queries as a zip that Browser's Favorites drawer imports (its upload button)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in saved_queries().items():
            z.writestr(f"recollect-graph/{name}", text)
    return buf.getvalue()


class GuideServer:
    """An HTTP server of the guide and style on ``127.0.0.1`` (``port=0``: a free port)."""

    def __init__(self, *, port: int = 0, host: str = "127.0.0.1") -> None:
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError(f"the guide server binds to loopback only, not {host!r}")
        if not isinstance(port, int) or not 0 <= port <= 65535:
            raise ValueError(f"port must be 0-65535, not {port!r}")
        self.httpd = ThreadingHTTPServer((host, port), _handler(self))
        self.port = int(self.httpd.server_address[1])
        self._thread: threading.Thread | None = None

    @property
    def base(self) -> str:
        """The base URL the guide's commands name."""
        return f"http://localhost:{self.port}"

    def url(self, name: str) -> str:
        """The URL of one served file."""
        return f"{self.base}/guides/{name}"

    def play_command(self) -> str:
        """The Browser command that plays the guide."""
        return f":play {self.url('recollect.html')}"

    def style_command(self) -> str:
        """The Browser command that applies the style."""
        return f":style {self.url('style.grass')}"

    def body(self, name: str) -> bytes | None:
        """A served file's bytes with the base URL filled in (None when it is not served)."""
        if name not in FILES:
            return None
        if name == "favourites.zip":
            return favourites_zip()
        text = (GUIDES / name).read_text(encoding="utf-8").replace("{{BASE}}", self.base)
        return text.encode("utf-8")

    def start(self) -> GuideServer:
        """Serve in a background thread; returns self."""
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        """Serve in this thread until interrupted."""
        self.httpd.serve_forever()

    def stop(self) -> None:
        """Stop serving and close the socket."""
        if self._thread is not None:
            self.httpd.shutdown()
            self._thread.join(timeout=5)
        self.httpd.server_close()


def _handler(server: GuideServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        """GET/HEAD of the guide files, CORS preflight; anything else is refused."""

        def log_message(self, format: str, *args: object) -> None:
            """Quiet: no line per request."""

        def _name(self) -> str | None:
            path = self.path.split("?", 1)[0]
            if not path.startswith("/guides/"):
                return None
            name = path.removeprefix("/guides/")
            return name if name in FILES else None

        def do_OPTIONS(self) -> None:
            """The CORS preflight Browser sends (it fetches with no-cache headers)."""
            self.send_response(204)
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
            self.send_header("Access-Control-Allow-Headers", "*")
            self.send_header("Access-Control-Max-Age", "600")
            self.end_headers()

        def do_GET(self) -> None:
            """A guide file, or 404."""
            self._send(head=False)

        def do_HEAD(self) -> None:
            """Headers of a guide file."""
            self._send(head=True)

        def _send(self, *, head: bool) -> None:
            name = self._name()
            body = server.body(name) if name else None
            status = 200 if body is not None else 404
            payload = body if body is not None else b"not found\n"
            self.send_response(status)
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Cache-Control", "no-cache")
            ctype = FILES[name] if body is not None and name else "text/plain; charset=utf-8"
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            if not head:
                self.wfile.write(payload)

    return Handler
