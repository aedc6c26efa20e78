"""Secrets stay secret: the password file is private and the password shows up nowhere else.

Binding to loopback only, auth being on and wrong or missing credentials being refused are
tested in ``tests/integration/test_server.py`` (``test_server_listens_on_loopback_only``,
``test_auth_is_on_with_a_private_generated_password``); not repeated here.

Here, against the reliability tests' own server (auth on, a generated password):

- the password file is mode 0600 in a 0700 directory, and the password is not on the JVM's
  command line (it is handed over in the environment, which only the same user can read);
- after a session (remember, search, connect, export, invariants, an ``AuthFailed``), the
  password is in no file under the data directory (the server's logs included), in no record of
  Python logging at DEBUG (the driver's own included), in no error message, in no line of an
  export, and in neither stdout nor stderr of the CLI run with ``-vv`` (embedded and external
  modes, right and wrong password); ``config --json`` masks it.

The analyst's own Cypher cannot read files or reach the network: ``tests/integration/
test_readonly.py`` (LOAD CSV, procedures, TERMINATE / SHOW TRANSACTIONS, refused by the client
and, for LOAD CSV, by the server's own settings). Here (``heavy``: it starts a server of its own),
the opt-in ``RECOLLECT_ALLOW_CSV_URLS=true``: file URLs are then confined to the server's import
directory, remote URLs work, and read-only queries still refuse LOAD CSV.
"""

from __future__ import annotations

import json
import logging
import os
import stat
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from recollect_graph import Recollect
from recollect_graph.db.client import Db
from recollect_graph.db.host import ensure_password
from recollect_graph.db.server import LocalServer
from recollect_graph.errors import AuthFailed, ForbiddenQuery, QueryError
from tests.helpers import make_settings
from tests.integration.test_readonly import Listener
from tests.reliability.support import Crashable

ROOT = Path(__file__).parents[2]


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "recollect_graph", "-vv", *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_password_file_is_private_and_off_the_command_line(crashable: Crashable) -> None:
    st = crashable.ensure_up()
    assert st.auth
    pw_file = crashable.settings.password_file
    assert stat.S_IMODE(pw_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(pw_file.parent.stat().st_mode) == 0o700
    password = ensure_password(crashable.settings)
    assert len(password) >= 20
    assert st.pid
    cmdline = Path(f"/proc/{st.pid}/cmdline").read_bytes()
    assert cmdline and password.encode() not in cmdline


def test_the_password_appears_in_no_log_error_output_or_export(
    crashable: Crashable, rg: Recollect, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    st = crashable.ensure_up()
    password = ensure_password(crashable.settings)
    secret = password.encode()
    wrong = f"wrong-{uuid.uuid4().hex}"
    scope = f"sec-{uuid.uuid4().hex[:8]}"
    seen: list[str] = []  # every message, output and line produced, to search at the end

    # A CLI run earlier in this process quiets the driver's logger (no -v); listen to it here.
    caplog.set_level(logging.DEBUG, logger="neo4j")
    with caplog.at_level(logging.DEBUG):  # the root logger: the library's and the driver's
        r = crashable.recollect(rg.embedder)
        try:
            a = r.remember("The deploy key rotates every 90 days", scope_id=scope, owner_id="kai")
            b = r.remember("Vault holds the deploy key", scope_id=scope, owner_id="kai")
            r.connect(a.id, b.id, "related_to", scope_id=scope)
            assert r.search("deploy key", scope_id=scope)
            assert not any(r.check_invariants(scope).values())
            lines = [json.dumps(x) for x in r.export(scope)]
            seen += lines
            (tmp_path / "export.jsonl").write_text("\n".join(lines))
        finally:
            r.close()
        for user, pw in (("neo4j", wrong), ("nobody", password), ("neo4j", None)):
            with pytest.raises(AuthFailed) as e:
                Db.connect(st.bolt_uri, user=user, password=pw)
            seen += [str(e.value), repr(e.value), str(e.value.__cause__)]
            assert wrong not in str(e.value)
    records = [rec.getMessage() for rec in caplog.records]
    assert any("neo4j" in m.lower() for m in records)  # the driver's debug log was captured
    seen += records

    # the CLI, embedded (the password read from its file) and external (from NEO4J_PASSWORD)
    embedded = {**crashable.env(), "RECOLLECT_SCOPE": scope}
    embedded.pop("NEO4J_URI", None)
    embedded.pop("NEO4J_PASSWORD", None)
    external = {**embedded, "NEO4J_URI": st.bolt_uri, "NEO4J_PASSWORD": password}
    runs = {
        "embedded": _cli(embedded, "invariants", "--scope", scope, "--json"),
        "external": _cli(external, "invariants", "--scope", scope, "--json"),
        "wrong password": _cli({**external, "NEO4J_PASSWORD": wrong}, "invariants", "--json"),
        "config": _cli(external, "config", "--json"),
        "export": _cli(external, "export", "--scope", scope),
    }
    for name, p in runs.items():
        assert p.returncode == (1 if name == "wrong password" else 0), (name, p.stderr)
        seen += [p.stdout, p.stderr]
    assert "refused the credentials" in runs["wrong password"].stderr
    assert wrong not in runs["wrong password"].stdout + runs["wrong password"].stderr
    assert "DEBUG" in runs["external"].stderr  # -vv logged at debug level
    config = json.loads(runs["config"].stdout)
    assert config["neo4j_password"] == "****" and config["mode"] == "external"
    assert len(runs["export"].stdout.splitlines()) == len(lines)

    leaks = [text[:200] for text in seen if password in text]
    assert leaks == []
    # nothing under the data directory: the store, the server's logs, the state files
    files = [p for p in crashable.settings.data_dir.rglob("*") if p.is_file()]
    assert any(p.suffix == ".log" for p in files)  # the server's logs are among them
    leaked_files = [str(p) for p in files if secret in p.read_bytes()]
    assert leaked_files == []


@pytest.mark.heavy
def test_csv_urls_opt_in_confines_files_to_the_import_directory(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, allow_csv_urls=True)
    server = LocalServer(settings)
    st = server.start(watch_pid=os.getpid())
    listener = Listener()
    try:
        (settings.server_home / "import" / "data.csv").write_text("a,b\n1,2\n")
        db = Db.connect(st.bolt_uri, user="neo4j", password=ensure_password(settings))
        try:
            load = "LOAD CSV FROM $url AS row RETURN row"

            def opted_in(url: str) -> list[dict[str, object]]:
                return db.run_adhoc(load, {"url": url}, write=True, allow_load_csv=True)

            assert opted_in("file:///data.csv") == [{"row": ["a", "b"]}, {"row": ["1", "2"]}]
            with pytest.raises(QueryError, match="Couldn't load the external resource"):
                opted_in("file:///etc/passwd")  # read as <import>/etc/passwd, which is not there
            with pytest.raises(QueryError):
                opted_in("file:///../../../../../../etc/passwd")
            rows = opted_in(f"http://127.0.0.1:{listener.port}/x.csv")
            assert rows == [{"row": ["secret", "row"]}] and len(listener.hits) == 1
            with pytest.raises(ForbiddenQuery, match="read-only"):
                db.run_adhoc(load, {"url": "file:///data.csv"}, allow_load_csv=True)
            with pytest.raises(ForbiddenQuery, match="RECOLLECT_ALLOW_CSV_URLS"):
                db.run_adhoc(load, {"url": "file:///data.csv"}, write=True)
            assert len(listener.hits) == 1
        finally:
            db.close()
    finally:
        listener.close()
        server.stop()
