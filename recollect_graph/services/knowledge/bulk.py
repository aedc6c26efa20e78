"""The bulk write pipeline: embedding, spaCy parsing and Neo4j writes of successive batches overlap.

``remember_many`` cuts its items into batches; each batch needs its texts embedded, its claims
parsed with spaCy, then one ``UNWIND`` transaction. Run one after the other, the CPU idles while
Neo4j inserts into its indexes and Neo4j idles while Python embeds. Here the embedding of batch
k+1 runs on one worker thread and its parsing on another while the caller's thread writes batch k
(onnxruntime and torch release the GIL while they compute, the driver while it waits on the
socket). Writes stay in the caller's thread and in input order, so progress callbacks and
in-transaction hooks run where they ran before and a failed batch stops the run with every
earlier batch committed and no later one, as before.
"""

from __future__ import annotations

import queue
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

B = TypeVar("B")
V = TypeVar("V")
C = TypeVar("C")
R = TypeVar("R")
T = TypeVar("T")

#: Batches prepared ahead of the one being written (bounds memory: vectors of 2 batches).
LOOKAHEAD = 2


def overlapped(
    batches: Sequence[B],
    embed: Callable[[B], V],
    parse: Callable[[B], C],
    write: Callable[[B, V, C], R],
    *,
    lookahead: int = LOOKAHEAD,
) -> list[R]:
    """``write(batch, embed(batch), parse(batch))`` for every batch, in order, overlapped.

    ``embed`` and ``parse`` of later batches run on two worker threads (one each, so each sees
    its batches in order) while ``write`` runs in the calling thread. The first exception stops
    everything: queued work is cancelled and the exception is raised here.

    Returns:
        The results of ``write``, in batch order.
    """
    if len(batches) <= 1:
        return [write(b, embed(b), parse(b)) for b in batches]
    out: list[R] = []
    with (
        ThreadPoolExecutor(1, thread_name_prefix="rg-embed") as embedder,
        ThreadPoolExecutor(1, thread_name_prefix="rg-parse") as parser,
    ):
        queue: deque[tuple[B, Future[V], Future[C]]] = deque()
        nxt = 0

        def fill() -> None:
            nonlocal nxt
            while nxt < len(batches) and len(queue) <= lookahead:
                b = batches[nxt]
                queue.append((b, embedder.submit(embed, b), parser.submit(parse, b)))
                nxt += 1

        try:
            fill()
            while queue:
                b, vec, parsed = queue.popleft()
                fill()
                out.append(write(b, vec.result(), parsed.result()))
        except BaseException:
            for _, vec, parsed in queue:
                vec.cancel()
                parsed.cancel()
            raise
    return out


_ITEM, _END, _ERROR = range(3)
#: How long a stopped prefetch waits for its worker to notice (it may be inside ``next``).
_JOIN_S = 5.0


def prefetched(items: Iterable[T], *, lookahead: int = LOOKAHEAD) -> Iterator[T]:
    """``items`` in order, produced on a worker thread up to ``lookahead`` items ahead.

    The work of making the next item (parsing an import's lines into a batch) then overlaps
    with what the caller does with this one (writing it: the driver releases the GIL while it
    waits on Neo4j). An exception raised while making an item is raised here, after the items
    made before it; a caller that stops early (an exception of its own) stops the worker.
    """
    slots: queue.Queue[tuple[int, Any]] = queue.Queue(maxsize=max(1, lookahead))
    stop = threading.Event()

    def put(kind: int, value: Any) -> bool:
        while not stop.is_set():
            try:
                slots.put((kind, value), timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for item in items:
                if not put(_ITEM, item):
                    return
        except BaseException as e:  # handed to the caller's thread, raised there
            put(_ERROR, e)
            return
        put(_END, None)

    worker = threading.Thread(target=produce, name="rg-prefetch", daemon=True)
    worker.start()
    try:
        while True:
            kind, value = slots.get()
            if kind == _END:
                return
            if kind == _ERROR:
                raise value
            yield value
    finally:
        stop.set()
        worker.join(_JOIN_S)
