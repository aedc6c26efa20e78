"""Everything under tests/integration needs the real Neo4j the session starts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner, Result

from recollect_graph import Recollect
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


#: Six team notes, stored with ``remember_many`` by the ``corpus`` fixture (search tests).
CORPUS = [
    ("cache", "The response cache is disabled in production until the eviction bug is fixed"),
    ("bundler", "We moved the frontend build from webpack to vite"),
    ("token", "Error code ZQX-7731 means the payment gateway rejected the merchant key"),
    ("standup", "Daily standup moved to 9:30 for the platform team"),
    ("oncall", "Ana is on call for the billing service this week"),
    ("postmortem", "Postmortem: eviction storm after cache config change on Friday"),
]


@pytest.fixture
def corpus(rg: Recollect, scope_id: str) -> dict[str, str]:
    entries = rg.remember_many(
        [{"content": c, "tags": [k]} for k, c in CORPUS], scope_id=scope_id, owner_id="kai"
    )
    return {k: e.id for (k, _), e in zip(CORPUS, entries, strict=True)}
