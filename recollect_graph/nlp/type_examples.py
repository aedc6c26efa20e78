"""Entry types by example: the nearest labelled sentences decide where no pattern does.

The pattern classifier (:mod:`recollect_graph.nlp.classify`) knows the phrasings it was written
for and answers "note" with confidence 0 for the rest. On 80 sentences written later by someone
who had not read it, it got 44% right; most misses were such silent "notes" ("I'm nervous about
presenting to the board tomorrow", "This runbook walks through restoring the database").

:class:`TypeExamples` embeds a labelled set of example sentences (``data/type_examples.jsonl``,
ten or more for each of the 16 entry types, ``note`` included) with the store's own embedder, once
per process, and gives an entry's vector the type its nearest examples vote for (the five most
similar, each weighted by its cosine similarity). An entry far from every example (best cosine
under :data:`MIN_SIMILARITY`) or with a split vote (:data:`MIN_SHARE`) stays a note. No LLM and
no other model: the vector is the one the entry is stored with.

Extend the examples file to teach a type a new way of speaking; nothing else needs to change.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["EXAMPLES_PATH", "MIN_SHARE", "MIN_SIMILARITY", "K", "TypeExamples", "load_examples"]

#: The labelled examples: one JSON object per line with ``text`` and ``type``.
EXAMPLES_PATH = Path(__file__).with_name("data") / "type_examples.jsonl"
#: Examples that vote.
K = 5
#: Below this cosine similarity to the nearest example an entry stays a note.
MIN_SIMILARITY = 0.3
#: The least share of the vote the winning type needs: the embedding knows topics better than
#: speech acts, so a split vote ("The deploy script lives at scripts/deploy.sh": a session summary
#: about the deploy script, a CI failure of a deploy job, a question about a deploy...) is a note.
MIN_SHARE = 0.4


def load_examples(path: Path = EXAMPLES_PATH) -> list[dict[str, str]]:
    """The labelled example sentences, in file order."""
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    return [{"text": str(r["text"]), "type": str(r["type"])} for r in rows]


class TypeExamples:
    """Nearest-example entry typing with an embedder (embeds the examples on first use).

    Args:
        embedder: Anything with ``embed(texts) -> list[list[float]]`` returning normalised
            vectors: the store's embedder, so examples and entries share one space.
    """

    def __init__(self, embedder: Any) -> None:
        self.embedder = embedder
        self._lock = threading.Lock()
        self._matrix: Any = None
        self._types: list[str] = []

    def _examples(self) -> tuple[Any, list[str]]:
        import numpy as np

        with self._lock:
            if self._matrix is None:
                rows = load_examples()
                vectors = self.embedder.embed([r["text"] for r in rows])
                self._matrix = np.asarray(vectors, dtype=np.float32)
                self._types = [r["type"] for r in rows]
        return self._matrix, self._types

    def nearest(self, vector: Sequence[float]) -> tuple[str, float] | None:
        """``(entry type, share of the vote)`` for an entry's vector.

        None when no example is near (cosine under :data:`MIN_SIMILARITY`) or the vote is split
        (the winner has under :data:`MIN_SHARE` of it).
        """
        import numpy as np

        matrix, types = self._examples()
        sims = matrix @ np.asarray(vector, dtype=np.float32)
        calibration = getattr(self.embedder, "calibration", None)
        if calibration is not None:  # on the scale MIN_SIMILARITY was set on
            sims = calibration.scores(sims)
        top = np.argsort(-sims)[:K]
        if float(sims[top[0]]) < MIN_SIMILARITY:
            return None
        votes: dict[str, float] = {}
        for i in top:
            votes[types[i]] = votes.get(types[i], 0.0) + max(0.0, float(sims[i]))
        best = max(votes, key=votes.__getitem__)
        total = sum(votes.values())
        share = votes[best] / total if total else 0.0
        return (best, round(share, 4)) if share >= MIN_SHARE else None
