"""Configured defaults reach the commands: a default scope is a scope, the owner the OS user's."""

from __future__ import annotations

import getpass
import shutil
from pathlib import Path
from typing import Any

import pytest

from recollect_graph import Settings
from tests.helpers import assert_one_line_error, data


@pytest.fixture
def own_config(cli_env: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A config dir of this test's own (the session's holds the server password: copied)."""
    conf = tmp_path / "conf"
    conf.mkdir(mode=0o700)
    shutil.copy2(cli_env.password_file, conf / cli_env.password_file.name)
    monkeypatch.setenv("RECOLLECT_CONFIG_DIR", str(conf))
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    return conf


def test_write_and_read_commands_use_the_configured_scope_and_owner(
    run: Any, own_config: Path, scope_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("RECOLLECT_OWNER")
    # no default scope: still required, and the message says how to set one
    assert_one_line_error(run("remember", "x", ok=False), "config set scope NAME")
    run("config", "set", "scope", scope_id)
    assert (own_config / "config.toml").is_file()
    e = data(run("remember", "We chose Vite over webpack", "--json"))
    assert e["scope_id"] == scope_id and e["owner_id"] == getpass.getuser()
    assert [x["id"] for x in data(run("recent", "--json"))] == [e["id"]]
    assert data(run("search", "vite", "--json"))[0]["entry"]["id"] == e["id"]
    # the project file wins over the user file, the environment over both, the flag over all
    run("config", "set", "scope", f"{scope_id}-p", "--project")
    run("config", "set", "owner", "pat", "--project")
    p = data(run("remember", "Project-scoped note", "--json"))
    assert (p["scope_id"], p["owner_id"]) == (f"{scope_id}-p", "pat")
    monkeypatch.setenv("RECOLLECT_SCOPE", f"{scope_id}-e")
    assert data(run("remember", "env note", "--json"))["scope_id"] == f"{scope_id}-e"
    f = data(run("remember", "flag note", "--scope", f"{scope_id}-f", "--json"))
    assert f["scope_id"] == f"{scope_id}-f"
    # a default scope is one scope: the others are not read
    monkeypatch.delenv("RECOLLECT_SCOPE")
    assert [x["id"] for x in data(run("recent", "--json"))] == [p["id"]]
