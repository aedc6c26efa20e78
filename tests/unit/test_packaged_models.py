"""Models that ship as a zip split over several PyPI packages (all-mpnet-base-v2)."""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path

import pytest

from recollect_graph.errors import ModelUnavailable
from recollect_graph.nlp.embedder import resolve_model_path
from recollect_graph.nlp.packaged_models import MPNET, PARTED, PartedModel, ensure_model, part_files

WEIGHTS = b"not really weights, but bytes with a known digest"


def _model(sha: str = hashlib.sha256(WEIGHTS).hexdigest()) -> PartedModel:
    return PartedModel(
        name="tiny",
        parts=("recollect-test-no-such-part-001", "recollect-test-no-such-part-002"),
        folder="tiny/",
        weights="model.safetensors",
        weights_sha256=sha,
        extra="tiny",
    )


def _pieces(tmp: Path, n: int = 3) -> list[Path]:
    """A zip of a model folder (with a desktop.ini and a path escaping it), cut into n pieces."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("tiny/model.safetensors", WEIGHTS)
        zf.writestr("tiny/config.json", "{}")
        zf.writestr("tiny/1_Pooling/config.json", "{}")
        zf.writestr("tiny/desktop.ini", "[.ShellClassInfo]")
        zf.writestr("tiny/../escape.txt", "outside")
        zf.writestr("other/readme.txt", "not the model")
    data = buf.getvalue()
    step = len(data) // n + 1
    out = []
    for i in range(n):
        p = tmp / f"tiny.zip.{i + 1:03d}"
        p.write_bytes(data[i * step : (i + 1) * step])
        out.append(p)
    return out


def test_the_pieces_are_joined_checked_and_unpacked_once(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    got = ensure_model(_model(), cache, _pieces(tmp_path))
    assert got == cache / "models" / "tiny"
    files = sorted(str(p.relative_to(got)) for p in got.rglob("*"))
    assert files == ["1_Pooling", "1_Pooling/config.json", "2_Normalize", "config.json",
                     "model.safetensors"]  # fmt: skip
    assert (got / "model.safetensors").read_bytes() == WEIGHTS
    assert not (cache / "models" / "escape.txt").exists()
    # made once: the second call reads no piece
    assert ensure_model(_model(), cache, [tmp_path / "gone.zip.001"]) == got
    assert [p.name for p in (cache / "models").iterdir() if p.name != ".tiny.lock"] == ["tiny"]


def test_weights_that_are_not_the_upstream_release_are_refused_and_nothing_is_left(
    tmp_path: Path,
) -> None:
    cache = tmp_path / "cache"
    with pytest.raises(ModelUnavailable, match="not the upstream release"):
        ensure_model(_model(sha="0" * 64), cache, _pieces(tmp_path))
    assert [p.name for p in (cache / "models").iterdir()] == [".tiny.lock"]


def test_a_missing_piece_says_so_and_leaves_nothing(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    pieces = _pieces(tmp_path)
    with pytest.raises(ModelUnavailable, match="do not make a zip"):
        ensure_model(_model(), cache, pieces[:1] + pieces[2:])
    assert [p.name for p in (cache / "models").iterdir()] == [".tiny.lock"]


def test_an_uninstalled_part_names_the_package_and_the_extra() -> None:
    with pytest.raises(ModelUnavailable, match=r"recollect-test-no-such-part-001 is not installed"):
        part_files(_model())
    assert MPNET.install_hint() == "pip install 'recollect-graph[mpnet]'"


def test_both_names_of_mpnet_resolve_to_the_assembled_copy(tmp_path: Path) -> None:
    assert PARTED["sentence-transformers/all-mpnet-base-v2"] is MPNET
    target = tmp_path / "models" / "all-mpnet-base-v2"
    target.mkdir(parents=True)
    (target / MPNET.weights).write_bytes(b"")  # an assembled copy: used as it is
    assert resolve_model_path("all-mpnet-base-v2", tmp_path) == str(target)
    assert resolve_model_path("some/other-model", tmp_path) == "some/other-model"
