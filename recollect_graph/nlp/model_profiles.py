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

A model trained here (``benchmarks/finetune_embedder.py``) carries its profile in its own
directory, as :data:`PROFILE_FILE`: set ``RECOLLECT_EMBEDDING_MODEL`` to the directory and its
prefixes, calibration and settings apply as a listed model's do (:func:`read_profile_file`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from recollect_graph.errors import ConfigError

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


#: A model directory's own profile (a model trained here: ``benchmarks/finetune_embedder.py``).
PROFILE_FILE = "recollect-graph-profile.json"
_PROFILE_KEYS = {"query_prefix", "passage_prefix", "calibration", "settings", "max_tokens"}


def profile_of(model_name: str) -> ModelProfile:
    """The profile of a configured model name.

    A listed name gets its profile (:data:`PROFILES`); a model directory with a
    :data:`PROFILE_FILE` gets the profile that file describes (:func:`read_profile_file`); any
    other model the identity (no prefixes, raw cosine, the project's settings).
    """
    known = PROFILES.get(model_name)
    if known is not None:
        return known
    file = Path(model_name).expanduser() / PROFILE_FILE
    if not file.is_file() or _loads_elsewhere(model_name):
        return IDENTITY
    return _read_cached(str(file.resolve()), file.stat().st_mtime_ns)


def _loads_elsewhere(model_name: str) -> bool:
    """Whether the embedder loads ``model_name`` from a package, not from a directory so named.

    ``embedder.resolve_model_path`` decides; a directory of that name is then not the model's.
    """
    from recollect_graph.nlp.embedder import PACKAGED
    from recollect_graph.nlp.maven_models import MAVEN
    from recollect_graph.nlp.packaged_models import PARTED

    return model_name in PACKAGED or model_name in PARTED or model_name in MAVEN


@lru_cache(maxsize=16)
def _read_cached(file: str, _mtime_ns: int) -> ModelProfile:
    return read_profile_file(Path(file))


def _number(value: Any, what: str, file: Path) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{file}: {what} must be a number, not {value!r}")
    return float(value)


def read_profile_file(file: Path) -> ModelProfile:
    """The :class:`ModelProfile` a JSON file describes; :class:`ConfigError` says what is wrong.

    The file is an object with any of ``query_prefix`` and ``passage_prefix`` (strings),
    ``calibration`` (``{"offset": number, "scale": number}``, the scale positive),
    ``settings`` (setting name -> number, only the numeric settings of
    :class:`~recollect_graph.settings.Settings`) and ``max_tokens`` (a positive integer).
    """
    from recollect_graph.settings import Settings

    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read the model profile {file}: {exc}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{file}: a model profile is a JSON object")
    unknown = sorted(set(data) - _PROFILE_KEYS)
    if unknown:
        raise ConfigError(
            f"{file}: unknown keys {', '.join(unknown)} (known: {', '.join(sorted(_PROFILE_KEYS))})"
        )
    prefixes = {}
    for key in ("query_prefix", "passage_prefix"):
        value = data.get(key, "")
        if not isinstance(value, str):
            raise ConfigError(f"{file}: {key} must be a string, not {value!r}")
        prefixes[key] = value
    cal = data.get("calibration", {})
    if not isinstance(cal, dict) or set(cal) - {"offset", "scale"}:
        raise ConfigError(f"{file}: calibration is an object of offset and scale")
    offset = _number(cal.get("offset", 0.0), "calibration.offset", file)
    scale = _number(cal.get("scale", 1.0), "calibration.scale", file)
    if scale <= 0:
        raise ConfigError(f"{file}: calibration.scale must be positive, not {scale}")
    raw_settings = data.get("settings", {})
    if not isinstance(raw_settings, dict):
        raise ConfigError(f"{file}: settings is an object of setting name -> number")
    fields = Settings.model_fields
    settings: list[tuple[str, float]] = []
    for name, value in sorted(raw_settings.items()):
        field = fields.get(name)
        default = None if field is None else field.default
        if isinstance(default, bool) or not isinstance(default, int | float):
            raise ConfigError(f"{file}: {name!r} is not a numeric setting of recollect-graph")
        number = _number(value, f"settings.{name}", file)
        if isinstance(default, int):
            if number != int(number):
                raise ConfigError(f"{file}: {name!r} takes a whole number, not {value!r}")
            number = int(number)
        settings.append((name, number))
    max_tokens = data.get("max_tokens")
    if max_tokens is not None and (
        isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens <= 0
    ):
        raise ConfigError(f"{file}: max_tokens must be a positive integer, not {max_tokens!r}")
    return ModelProfile(
        query_prefix=prefixes["query_prefix"],
        passage_prefix=prefixes["passage_prefix"],
        calibration=Calibration(offset=offset, scale=scale),
        settings=tuple(settings),
        max_tokens=max_tokens,
    )


def write_profile_file(directory: Path, profile: ModelProfile) -> Path:
    """Write ``profile`` as the :data:`PROFILE_FILE` of the model in ``directory``."""
    data: dict[str, Any] = {
        "query_prefix": profile.query_prefix,
        "passage_prefix": profile.passage_prefix,
        "calibration": {"offset": profile.calibration.offset, "scale": profile.calibration.scale},
        "settings": dict(profile.settings),
    }
    if profile.max_tokens is not None:
        data["max_tokens"] = profile.max_tokens
    file = directory / PROFILE_FILE
    file.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return file


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
    touched = {k for p in PROFILES.values() for k, _ in p.settings} | set(own)
    touched -= settings.model_fields_set
    fields = type(settings).model_fields
    update = {k: own.get(k, fields[k].default) for k in touched}
    if all(getattr(settings, k) == v for k, v in update.items()):
        return settings
    out = settings.model_copy(update=update)
    # the model's defaults are not the user's choice: another model replaces them
    object.__setattr__(out, "__pydantic_fields_set__", set(settings.model_fields_set))
    return out
