"""The overlapped bulk pipeline: order, overlap and how a failure stops it."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from recollect_graph.services.knowledge.bulk import overlapped, prefetched


def test_every_batch_is_written_once_in_order_with_its_own_results() -> None:
    written: list[tuple[int, int, int]] = []
    out = overlapped(
        list(range(7)),
        lambda b: b * 10,
        lambda b: b * 100,
        lambda b, v, c: written.append((b, v, c)) or b,
    )
    assert out == list(range(7))
    assert written == [(b, b * 10, b * 100) for b in range(7)]


def test_the_next_batch_is_prepared_while_one_is_written() -> None:
    prepared_during_write = threading.Event()
    first_written = threading.Event()

    def embed(b: int) -> int:
        if b == 1 and not first_written.is_set():
            prepared_during_write.set()
        return b

    def write(b: int, v: int, c: int) -> None:
        if b == 0:
            assert prepared_during_write.wait(10), "batch 1 was not embedded during batch 0's write"
            first_written.set()

    overlapped([0, 1, 2], embed, lambda b: b, write)
    assert first_written.is_set()


def test_writes_stay_in_the_callers_thread() -> None:
    threads: set[int] = set()
    overlapped(
        [1, 2, 3], lambda b: b, lambda b: b, lambda b, v, c: threads.add(threading.get_ident())
    )
    assert threads == {threading.get_ident()}


def test_a_failed_write_stops_the_run_and_writes_nothing_after_it() -> None:
    written: list[int] = []

    def write(b: int, v: int, c: int) -> None:
        if b == 2:
            raise RuntimeError("batch 2 failed")
        written.append(b)

    with pytest.raises(RuntimeError, match="batch 2 failed"):
        overlapped(list(range(10)), lambda b: b, lambda b: b, write)
    assert written == [0, 1]


def test_a_failed_parse_is_raised_in_the_caller_before_that_batch_is_written() -> None:
    written: list[int] = []

    def parse(b: int) -> int:
        if b == 3:
            raise ValueError("bad text in batch 3")
        return b

    with pytest.raises(ValueError, match="batch 3"):
        overlapped(list(range(6)), lambda b: b, parse, lambda b, v, c: written.append(b))
    assert written == [0, 1, 2]


def test_prefetched_yields_every_item_in_order() -> None:
    assert list(prefetched(iter(range(50)), lookahead=2)) == list(range(50))
    assert list(prefetched([])) == []


def test_prefetched_makes_the_next_item_while_the_caller_uses_this_one() -> None:
    made_during_use = threading.Event()
    using_first = threading.Event()

    def items() -> Iterator[int]:
        yield 0
        if using_first.wait(10):  # made on its own thread while the caller holds item 0
            made_during_use.set()
        yield 1

    for item in prefetched(items()):
        if item == 0:
            using_first.set()
            assert made_during_use.wait(10), "item 1 was not made while item 0 was in use"


def test_prefetched_raises_a_producers_error_after_the_items_before_it() -> None:
    def items() -> Iterator[int]:
        yield 1
        yield 2
        raise ValueError("line 3 is not valid JSON")

    seen: list[int] = []
    with pytest.raises(ValueError, match="line 3"):
        for item in prefetched(items()):
            seen.append(item)
    assert seen == [1, 2]


def test_a_caller_that_stops_early_stops_the_producer() -> None:
    made: list[int] = []

    def items() -> Iterator[int]:
        for i in range(1000):
            made.append(i)
            yield i

    with pytest.raises(RuntimeError):
        for item in prefetched(items(), lookahead=2):
            if item == 3:
                raise RuntimeError("write failed")
    assert len(made) < 10
