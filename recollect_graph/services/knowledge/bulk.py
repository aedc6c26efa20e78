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

from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

B = TypeVar("B")
V = TypeVar("V")
C = TypeVar("C")
R = TypeVar("R")

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
