"""The worker threads of a search's overlapped statements start when needed and stop on close."""

from __future__ import annotations

import threading

from recollect_graph.services.search.hybrid import Search
from recollect_graph.settings import Settings


def _workers() -> int:
    return sum(t.name.startswith("rg-search") for t in threading.enumerate())


def test_workers_stop_on_close_and_start_again_when_needed() -> None:
    search = Search(None, None, Settings())  # type: ignore[arg-type]  # no statement runs
    before = _workers()
    assert search._background().submit(lambda: 2 + 2).result() == 4
    assert _workers() == before + 1
    search.close()
    assert _workers() == before
    assert search._background().submit(lambda: "again").result() == "again"
    search.close()
    search.close()  # closing twice is harmless
    assert _workers() == before
