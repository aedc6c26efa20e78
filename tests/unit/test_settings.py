from pathlib import Path

import pytest
from pydantic import ValidationError

from recollect_graph import Settings
from recollect_graph.errors import ConfigError


def test_defaults_use_embedded_server_on_loopback() -> None:
    s = Settings.from_env(environ={})
    assert s.embedded
    assert s.effective_uri() == "bolt://127.0.0.1:7687"
    assert s.http_port == 7474
    assert s.local_auth is True
    assert s.embedding_model == "all-MiniLM-L6-v2"


def test_environment_is_read() -> None:
    env = {
        "NEO4J_URI": "neo4j://db.example:7687",
        "NEO4J_USER": "alice",
        "NEO4J_PASSWORD": "s3cret-pass",
        "NEO4J_DATABASE": "graph",
        "RECOLLECT_BOLT_PORT": "17687",
        "RECOLLECT_DATA_DIR": "/tmp/rg-data",
        "RECOLLECT_NEO4J_AUTH": "false",
        "RECOLLECT_SPACY_MODEL": "en_core_web_md",
    }
    s = Settings.from_env(environ=env)
    assert not s.embedded
    assert s.effective_uri() == "neo4j://db.example:7687"
    assert (s.neo4j_user, s.neo4j_database, s.bolt_port) == ("alice", "graph", 17687)
    assert s.data_dir == Path("/tmp/rg-data")
    assert s.server_home == Path("/tmp/rg-data/neo4j")
    assert s.local_auth is False
    assert s.spacy_model == "en_core_web_md"


def test_overrides_win_over_environment() -> None:
    s = Settings.from_env(environ={"RECOLLECT_BOLT_PORT": "1111"}, bolt_port=2222)
    assert s.bolt_port == 2222


@pytest.mark.parametrize(
    ("var", "value"),
    [
        ("RECOLLECT_BOLT_PORT", "not-a-port"),
        ("RECOLLECT_BOLT_PORT", "70000"),
        ("RECOLLECT_HEAP_MB", "10"),
    ],
)
def test_bad_values_are_one_clear_error(var: str, value: str) -> None:
    with pytest.raises(ConfigError) as e:
        Settings.from_env(environ={var: value})
    assert var in str(e.value)
    assert value in str(e.value)


def test_masked_hides_password() -> None:
    s = Settings.from_env(environ={"NEO4J_PASSWORD": "hunter2-hunter2"})
    data = s.masked()
    assert data["neo4j_password"] == "****"
    assert "hunter2" not in str(data)
    assert data["mode"] == "embedded"


def test_settings_are_frozen() -> None:
    s = Settings.from_env(environ={})
    with pytest.raises(ValidationError):
        s.bolt_port = 1  # type: ignore[misc]
