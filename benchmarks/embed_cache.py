"""A benchmark's turn vector cache: the configured embedder, remembering what it embedded.

LongMemEval's dev half holds ~113,000 turns; embedding them takes most of an hour on 2 cores, so
the harness keeps each vector on disk by the SHA-1 of its text, in one file per model, backend
and input cut (``~/.cache/recollect-graph/bench-embeddings/``). A later run, or another variant,
reads them back instead of embedding again.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from benchmarks.retrieval import log
from recollect_graph.nlp.embedder import Embedder

#: Where the vectors are kept unless ``--embed-cache`` names another folder.
DEFAULT_CACHE = Path.home() / ".cache" / "recollect-graph" / "bench-embeddings"


class CachedEmbedder(Embedder):
    """The configured embedder, remembering the vectors of texts embedded while ``caching``."""

    def __init__(self, base: Embedder, folder: Path | None) -> None:
        base.embed(["load the model"])
        self.__dict__.update(base.__dict__)  # the same loaded model, settings and lock
        self.caching = False
        self.folder = folder
        self.vectors: dict[str, tuple[float, ...]] = {}
        self.misses = 0
        if folder is not None and self._file.exists():
            with np.load(self._file) as z:
                for key, vec in zip(z["keys"], z["vectors"], strict=True):
                    self.vectors[str(key)] = tuple(float(x) for x in vec)
            log(f"embed cache: {len(self.vectors)} vectors from {self._file}")

    @property
    def _file(self) -> Path:
        assert self.folder is not None
        cut = self.profile.max_tokens  # a profile's cut is part of what a vector is
        name = f"{self.model_id}|{self.backend}" + (f"|{cut}" if cut else "")
        tag = hashlib.sha1(name.encode()).hexdigest()[:12]
        return self.folder / f"{tag}.npz"

    @staticmethod
    def _key(text: str) -> str:
        return hashlib.sha1(text.encode()).hexdigest()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not self.caching:
            return super().embed(texts)
        keys = [self._key(t) for t in texts]
        todo = [i for i, k in enumerate(keys) if k not in self.vectors]
        if todo:
            self.misses += len(todo)
            fresh = super().embed([texts[i] for i in todo])
            for i, vec in zip(todo, fresh, strict=True):
                self.vectors[keys[i]] = tuple(vec)
        return [list(self.vectors[k]) for k in keys]

    def warm(self, texts: Sequence[str], chunk: int = 4096) -> tuple[int, float]:
        """Embed the ``texts`` not yet cached, longest first in large chunks; (count, seconds).

        The store embeds a session's turns at a time, so its batches mix lengths and pad; sorted
        over the whole haystack set the same vectors cost about half (a new model's first run).
        """
        todo = sorted({t for t in texts if self._key(t) not in self.vectors}, key=len)[::-1]
        t0 = time.perf_counter()
        was, self.caching = self.caching, True
        for start in range(0, len(todo), chunk):
            self.embed(todo[start : start + chunk])
            log(f"embed cache: warmed {start + len(todo[start : start + chunk])}/{len(todo)}")
            self.save()
        self.caching = was
        return len(todo), time.perf_counter() - t0

    def save(self) -> None:
        if self.folder is None or not self.misses:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        keys = list(self.vectors)
        tmp = self._file.with_suffix(".tmp.npz")
        np.savez(tmp, keys=np.array(keys), vectors=np.array([self.vectors[k] for k in keys]))
        tmp.replace(self._file)
        log(f"embed cache: {len(keys)} vectors saved to {self._file}")
