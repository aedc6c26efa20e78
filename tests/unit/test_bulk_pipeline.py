"""The overlapped bulk pipeline: order, overlap and how a failure stops it."""

from __future__ import annotations

import threading

import pytest

from recollect_graph.services.knowledge.bulk import overlapped


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
