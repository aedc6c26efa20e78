"""docker-compose.yml: valid against the Compose schema, pinned, Bolt-checked, password from a file.

No Docker engine: the file is validated with ``jsonschema`` against the compose-spec schema
vendored in ``tests/data/compose`` (Apache-2.0, see its NOTICE.md).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from recollect_graph.db.launcher_build import neo4j_version_in_pom

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "tests/data/compose/compose_spec.json"


def compose() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert isinstance(data, dict)
    return data


def test_compose_file_is_valid_against_the_compose_schema() -> None:
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft201909Validator(schema).validate(compose())


def test_the_schema_rejects_a_broken_file() -> None:
    """The validation can fail: an unknown service key is refused."""
    schema = json.loads(SCHEMA.read_text())
    broken = compose()
    broken["services"]["neo4j"]["healthcheck"]["tset"] = ["CMD", "true"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft201909Validator(schema).validate(broken)


def test_image_is_pinned_to_the_embedded_neo4j_version() -> None:
    image = compose()["services"]["neo4j"]["image"]
    assert image == f"neo4j:{neo4j_version_in_pom()}-community"


def test_health_check_speaks_bolt_not_http() -> None:
    test = " ".join(compose()["services"]["neo4j"]["healthcheck"]["test"])
    assert "cypher-shell" in test and "bolt://" in test
    assert "http" not in test.replace("bolt://", "")


def test_password_comes_from_an_auth_file_secret() -> None:
    data = compose()
    svc = data["services"]["neo4j"]
    env = svc["environment"]
    assert "NEO4J_AUTH" not in env and env["NEO4J_AUTH_FILE"] == "/run/secrets/neo4j_auth"
    assert svc["secrets"] == ["neo4j_auth"]
    assert "neo4j-auth" in data["secrets"]["neo4j_auth"]["file"]
    assert all(p.startswith("127.0.0.1:") for p in svc["ports"])


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_neo4j_auth_writes_a_0600_file_once(tmp_path: Path) -> None:
    path = tmp_path / "auth"
    env = {**os.environ, "NEO4J_PASSWORD": "a-long-test-password"}

    def make(target: Path = path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["make", "-s", "-C", str(ROOT), "neo4j-auth", f"NEO4J_AUTH_PATH={target}"],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )

    assert make().returncode == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text() == "neo4j/a-long-test-password\n"
    env["NEO4J_PASSWORD"] = "another-password"
    assert "kept" in make().stdout
    assert path.read_text() == "neo4j/a-long-test-password\n"
    env["NEO4J_PASSWORD"] = "short"
    short = make(tmp_path / "other")
    assert short.returncode != 0 and "8+ characters" in short.stderr
    assert not (tmp_path / "other").exists()
