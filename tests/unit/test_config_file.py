"""Config files: precedence (flag > env > project file > user file > default), config set/get."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect_graph import Settings, config_file
from recollect_graph.cli.main import cli
from recollect_graph.errors import ConfigError


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user config dir and a project dir of our own; no settings from the environment."""
    for var in ("RECOLLECT_SCOPE", "RECOLLECT_OWNER", "NEO4J_URI", "RECOLLECT_BOLT_PORT"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("RECOLLECT_CONFIG_DIR", str(tmp_path / "conf"))
    project = tmp_path / "proj" / "sub" / "dir"
    project.mkdir(parents=True)
    monkeypatch.chdir(project)
    return tmp_path


def _run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, list(args), env=env)
    return r.exit_code, r.stdout, r.stderr


def test_precedence_flag_env_project_user_default(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert Settings.from_env().default_scope == "shared"  # the default
    (home / "conf").mkdir()
    (home / "conf" / "config.toml").write_text('scope = "from-user"\nbolt_port = 7001\n')
    assert Settings.from_env().default_scope == "from-user"
    assert Settings.from_env().bolt_port == 7001
    # the project file is found from a subdirectory, and wins over the user file
    (home / "proj" / ".recollect-graph.toml").write_text('scope = "from-project"\n')
    s = Settings.from_env()
    assert (s.default_scope, s.bolt_port) == ("from-project", 7001)
    monkeypatch.setenv("RECOLLECT_SCOPE", "from-env")
    assert Settings.from_env().default_scope == "from-env"
    assert Settings.from_env(default_scope="from-flag").default_scope == "from-flag"
    # an explicit environment mapping reads no file (unless asked)
    assert Settings.from_env(environ={}).default_scope == "shared"
    conf = {"RECOLLECT_CONFIG_DIR": str(home / "conf")}
    assert Settings.from_env(environ=conf, config_files=True).bolt_port == 7001


def test_the_owner_defaults_to_the_os_user(home: Path) -> None:
    import getpass

    assert Settings.from_env().default_owner == getpass.getuser()


def test_config_set_get_show_round_trip(home: Path) -> None:
    code, out, _ = _run("config", "set", "scope", "app", "--json")
    assert code == 0 and json.loads(out)["file"] == str(home / "conf" / "config.toml")
    _run("config", "set", "bolt_port", "7002")
    assert config_file.read(home / "conf" / "config.toml") == {"scope": "app", "bolt_port": 7002}
    code, out, _ = _run("config", "get", "scope", "--json")
    assert json.loads(out) == {
        "key": "scope",
        "value": "app",
        "source": f"user file {home / 'conf' / 'config.toml'}",
    }
    code, out, _ = _run("config", "get", "scope", env={"RECOLLECT_SCOPE": "e"})
    assert out.strip() == "e"
    code, out, _ = _run("config", "set", "scope", "here", "--project")
    assert (Path.cwd() / ".recollect-graph.toml").is_file()
    shown = json.loads(_run("config", "show", "--json")[1])
    assert shown["default_scope"] == "here" and shown["bolt_port"] == 7002
    assert shown["sources"]["default_scope"].startswith("project file ")
    assert shown["config_files"]["project"] == str(Path.cwd() / ".recollect-graph.toml")
    assert json.loads(_run("config", "--json")[1])["default_scope"] == "here"  # = show
    code, out, _ = _run("config", "unset", "scope", "--project", "--json")
    assert json.loads(out)["removed"] is True
    assert _run("config", "get", "scope")[1].strip() == "app"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["config", "set", "password", "x"], "unknown key 'password' (keep it in NEO4J_PASSWORD)"),
        (["config", "set", "colour", "red"], "known keys: bolt_port, cache_dir"),
        (["config", "get", "colour"], "unknown key 'colour'"),
        (["config", "set", "bolt_port", "abc"], "invalid value for bolt_port: 'abc'"),
        (["config", "set", "fusion", "best"], "invalid value for fusion: 'best'"),
        (["config", "set", "scope", " "], "the value is empty"),
    ],
)
def test_bad_keys_and_values_are_refused_and_change_nothing(
    home: Path, args: list[str], needle: str
) -> None:
    _run("config", "set", "scope", "app")
    before = (home / "conf" / "config.toml").read_bytes()
    code, out, err = _run(*args, "--json")
    assert code == 1
    assert json.loads(out)["error"] == "config" and needle in json.loads(out)["message"]
    assert err.strip().startswith("Error: ") and needle in err
    assert (home / "conf" / "config.toml").read_bytes() == before
    assert os.listdir(home / "conf") == ["config.toml"]  # no temporary file left behind


def test_a_broken_file_is_one_clear_error(home: Path) -> None:
    (home / "conf").mkdir()
    (home / "conf" / "config.toml").write_text("scope = \n")
    with pytest.raises(ConfigError, match="is not valid TOML"):
        Settings.from_env()
    (home / "conf" / "config.toml").write_text('colour = "red"\n')
    with pytest.raises(ConfigError, match="unknown key 'colour'"):
        Settings.from_env()
    (home / "conf" / "config.toml").write_text('bolt_port = "abc"\n')
    with pytest.raises(ConfigError, match=r"bolt_port='abc' \(in the user file .*config.toml\)"):
        Settings.from_env()


def test_values_are_written_as_toml_that_reads_back(home: Path) -> None:
    path = home / "conf" / "config.toml"
    config_file.write(path, {"scope": 'a "quoted" scope\\ü', "heap_mb": 1024, "fusion": "rrf"})
    assert config_file.read(path) == {
        "scope": 'a "quoted" scope\\ü',
        "heap_mb": 1024,
        "fusion": "rrf",
    }


def test_config_shows_a_models_own_weight_and_where_it_comes_from(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for var in ("RECOLLECT_EMBEDDING_MODEL", "RECOLLECT_W_KEYWORD"):
        monkeypatch.delenv(var, raising=False)
    assert json.loads(_run("config", "show", "--json")[1])["w_keyword"] == 0.25
    _run("config", "set", "embedding_model", "e5-small-v2")
    shown = json.loads(_run("config", "show", "--json")[1])
    assert shown["w_keyword"] == 0.15
    assert shown["sources"]["w_keyword"] == "model e5-small-v2"
    assert shown["sources"]["w_semantic"] == "default"
    shown = json.loads(_run("config", "show", "--json", env={"RECOLLECT_W_KEYWORD": "0.3"})[1])
    assert shown["w_keyword"] == 0.3
    assert shown["sources"]["w_keyword"] == "env RECOLLECT_W_KEYWORD"
