"""Everything under tests/integration needs the real Neo4j the session starts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner, Result

from recollect_graph.cli.main import cli
from recollect_graph.settings import Settings


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "/integration/" in str(item.path):
            item.add_marker(pytest.mark.integration)


@pytest.fixture
def run(cli_env: Settings, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    """Invoke the CLI as owner ``kai`` with no default scope; ``ok=True`` asserts exit code 0."""
    monkeypatch.delenv("RECOLLECT_SCOPE", raising=False)
    monkeypatch.setenv("RECOLLECT_OWNER", "kai")
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None, ok: bool = True) -> Any:
        r = runner.invoke(cli, list(args), input=input)
        if ok:
            assert r.exit_code == 0, (r.stdout, r.stderr, r.exception)
        return r

    return invoke
