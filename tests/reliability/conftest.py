"""Reliability tests: crashes, connection faults, concurrency, scope isolation, bad input.

Every test here is marked ``reliability`` (and ``integration``: it needs Neo4j). Tests marked
``heavy`` are the big variants: they are deselected unless the ``-m`` expression names them
(``make test-heavy`` runs ``pytest -m heavy tests/reliability``).

Tests that kill or stop Neo4j use their own server (:class:`Crashable`), never the session's
shared one; tests that only read and write use the shared ``rg``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from recollect_graph import Recollect
from tests.helpers import make_settings
from tests.reliability.support import Crashable


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    want_heavy = "heavy" in (config.getoption("markexpr", "") or "")
    keep: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        if "/reliability/" in str(item.path):
            item.add_marker(pytest.mark.reliability)
            item.add_marker(pytest.mark.integration)
            if item.get_closest_marker("heavy") and not want_heavy:
                dropped.append(item)
                continue
        keep.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


@pytest.fixture(scope="session")
def crashable(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Crashable]:
    """The reliability tests' own server, started once and restarted after each kill."""
    c = Crashable(make_settings(tmp_path_factory.mktemp("crashable")))
    c.start()
    yield c
    if c.status().running:
        c.kill9()  # a throwaway store: no need to wait for a clean shutdown


@pytest.fixture
def crash_rg(crashable: Crashable, rg: Recollect) -> Iterator[Recollect]:
    """A client of the crashable server with a 2 s retry budget; the server is up on entry."""
    r = crashable.recollect(rg.embedder)
    yield r
    r.close()
