"""What each embedding model needs besides its weights: text prefixes and a similarity scale.

Two things differ between sentence encoders and matter to everything that reads their vectors:

- **Prefixes.** e5 was trained with ``"query: "`` before a search query and ``"passage: "``
  before what is searched; without them it ranks worse (LoCoMo, dense alone, tuning
  conversations: R@10 0.658 bare against 0.721 with them). The embedder adds them:
  :meth:`~recollect_graph.nlp.embedder.Embedder.embed` is for what is stored,
  :meth:`~recollect_graph.nlp.embedder.Embedder.embed_query` for what is asked.
- **The cosine's scale.** Every weight and threshold that reads a cosine (the search's
  fusion and relevance floor, duplicate and link thresholds, near pairs, recall) was set on
  all-MiniLM-L6-v2, whose unrelated texts sit near 0 and related ones near 0.3-0.6. e5's cosines
  crowd into 0.7-0.9, bge's into 0.4-0.7. A model's :class:`Calibration` maps its cosine
  affinely onto MiniLM's scale (clipped to [-1, 1]); the services read cosines through it, and
  turn their thresholds back into the model's raw cosine where the database compares them.

The calibrations were fitted on LoCoMo's tuning conversations only (conv-26, conv-30, conv-41:
every question against every turn, 193,515 pairs), matching the model's cosine quantiles 0.5,
0.9, 0.99 and 0.999 to MiniLM's with a least-squares line (``benchmarks/calibrate_model.py``);
e5's offset is then 0.05 lower (below).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from recollect_graph.settings import Settings


@dataclass(frozen=True)
class Calibration:
    """``score = offset + scale x cosine``, clipped to [-1, 1] (identity by default)."""

    offset: float = 0.0
    scale: float = 1.0

    @property
    def identity(self) -> bool:
        """Whether scores are the raw cosines."""
        return self.offset == 0.0 and self.scale == 1.0

    def score(self, cosine: float) -> float:
        """A raw cosine on the reference scale."""
        if self.identity:
            return cosine
        return max(-1.0, min(1.0, self.offset + self.scale * cosine))

    def scores(self, cosines: Any) -> Any:
        """:meth:`score` of every cosine of a numpy array (the array itself for the identity)."""
        if self.identity:
            return cosines
        import numpy as np

        return np.clip(self.offset + self.scale * cosines, -1.0, 1.0)

    def raw(self, score: float) -> float:
        """The raw cosine that scores ``score`` (for a threshold the database compares)."""
        if self.identity:
            return score
        return (score - self.offset) / self.scale


@dataclass(frozen=True)
class ModelProfile:
    """A model's prefixes, similarity scale and search settings of its own.

    ``settings`` are defaults that replace the project's for this model (field name, value),
    where the user set nothing: :func:`for_model`. ``max_tokens``, when set, cuts what the model
    reads below its own input limit (the embedder applies it on load).
    """

    query_prefix: str = ""
    passage_prefix: str = ""
    calibration: Calibration = Calibration()
    settings: tuple[tuple[str, float], ...] = ()
    max_tokens: int | None = None


IDENTITY = ModelProfile()

#: e5's fitted offset is -3.122; its unrelated pairs spread wider than MiniLM's once scaled, so
#: more of them passed the relevance floor (LoCoMo off-topic questions: 3.27 hits per search
#: against MiniLM's 0.85). 0.05 lower brings that to 0.97 with tuning R@10 unchanged
#: (docs/benchmarks.md); the scale is the fit's.
#:
#: Its keyword weight is lower than MiniLM's 0.25: e5's cosine alone ranks the evidence better
#: than BM25 does (LoCoMo tuning conversations, R@10 0.690 against 0.593; MiniLM's 0.529), so the
#: fusion leans on it more. Chosen on the tuning conversations among 0.1 / 0.15 / 0.2 / 0.25.
#:
#: Its semantic floors are 0.1 higher than MiniLM's: the calibration was fitted on LoCoMo's
#: short turns, and LongMemEval's long chat turns sit higher on it, so off-topic questions kept
#: 5.25 hits per search there (MiniLM 0.69 on the same haystacks); 0.1 higher gives 0.94, and
#: 0.0 on LoCoMo (from 0.97); the sample's rankings did not move, LoCoMo's tuning R@10 went
#: 0.848 -> 0.847 (docs/benchmarks.md, "e5's own keyword weight and floors"). The floor of a
#: turn said in a time the question names (``search_floor_time``) is 0.1 higher for the same
#: reason.
#:
#: It reads at most 256 tokens, as MiniLM does, not its own 512: a long chat turn then embeds
#: about 4x faster (LongMemEval's longest turns, 15 against 4 per second on 2 cores; MiniLM 27)
#: (docs/benchmarks.md, "e5 at 256 tokens").
_E5 = ModelProfile(
    query_prefix="query: ",
    passage_prefix="passage: ",
    calibration=Calibration(offset=-3.172, scale=4.355),
    settings=(
        ("w_keyword", 0.15),
        ("search_floor", 0.35),
        ("search_floor_confident", 0.55),
        ("search_floor_relaxed", 0.3),
        ("search_floor_time", 0.3),
    ),
    max_tokens=256,
)
_BGE = ModelProfile(calibration=Calibration(offset=-0.804, scale=1.936))

#: Known models by configured name; any other model is used as it is (no prefixes, raw cosine).
PROFILES: dict[str, ModelProfile] = {
    "e5-small-v2": _E5,
    "intfloat/e5-small-v2": _E5,
    "bge-small-en-v1.5": _BGE,
    "BAAI/bge-small-en-v1.5": _BGE,
}


def profile_of(model_name: str) -> ModelProfile:
    """The profile of a configured model name (the identity for models not listed)."""
    return PROFILES.get(model_name, IDENTITY)


def for_model(settings: Settings) -> Settings:
    """``settings`` with its embedding model's own defaults where the user set nothing.

    A model's profile may carry search settings fitted to it (e5-small-v2 weighs keywords 0.15,
    not 0.25, and has semantic floors 0.1 higher). A value the user gave, in a config file, the
    environment or an override, always wins; so does a field set through
    ``model_copy(update=...)``. Fields another model's profile sets go back to the project's
    defaults. The library's entry point applies this once
    (:class:`~recollect_graph.facade.Recollect`).
    """
    own = dict(profile_of(settings.embedding_model).settings)
    touched = {k for p in PROFILES.values() for k, _ in p.settings} - settings.model_fields_set
    fields = type(settings).model_fields
    update = {k: own.get(k, fields[k].default) for k in touched}
    if all(getattr(settings, k) == v for k, v in update.items()):
        return settings
    out = settings.model_copy(update=update)
    # the model's defaults are not the user's choice: another model replaces them
    object.__setattr__(out, "__pydantic_fields_set__", set(settings.model_fields_set))
    return out
