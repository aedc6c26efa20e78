"""A store embedded with a model trained by `models train` uses what the model's directory says.

The model is trained here, on made-up project codenames no general model knows, so that what
the search finds shows the training reached it: its calibration and settings come from the
directory's profile file, and the ONNX backend exports it (a model saved by
sentence-transformers 6 once fell back to torch). A store is tied to its model, so this module
runs its own server.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from recollect_graph import Recollect
from recollect_graph.nlp.finetune import PROFILE_SETTINGS, finetune, read_pairs
from tests.helpers import own_store
from tests.unit.test_finetune import _CODENAMES, _pairs_file

_FLOORS = {
    "search_floor": 0.0,
    "search_floor_confident": 0.0,
    "search_floor_relaxed": 0.0,
    "search_floor_time": 0.0,
}


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("trained")
    out = base / "minilm-codenames"
    pairs = read_pairs(_pairs_file(base))
    finetune(pairs, out, base="all-MiniLM-L6-v2", rank=4, epochs=6, lr=5e-3, say=lambda _m: None)
    return out


@pytest.fixture(scope="module")
def rg(trained: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Recollect]:
    base = tmp_path_factory.mktemp("neo4j-trained")
    # the floors set here win over the profile's: a model trained on 16 pairs scores its
    # pairs near them, and this module is about the ranking the training gives
    with own_store(base, embedding_model=str(trained), **_FLOORS) as r:
        yield r


def test_the_directory_brings_its_calibration_and_settings(rg: Recollect, trained: Path) -> None:
    assert rg.embedder.model_id == str(trained)
    assert not rg.embedder.calibration.identity
    for name, value in PROFILE_SETTINGS.items():
        expected = _FLOORS.get(name, value)  # the user's value wins over the model's
        assert getattr(rg.settings, name) == expected
        assert getattr(rg.searcher.settings, name) == expected
    assert rg.settings.w_keyword == PROFILE_SETTINGS["w_keyword"] != 0.25
    rg.embedder.embed(["warm up"])
    assert rg.embedder.backend == "onnx-int8", rg.embedder.fallback_reason


def test_the_search_finds_what_the_model_was_trained_to_pair(rg: Recollect) -> None:
    scope_id = f"test-{uuid.uuid4().hex[:12]}"
    entries = rg.remember_many(
        [{"content": f"We worked on {what}."} for _, what in _CODENAMES],
        scope_id=scope_id,
        owner_id="kai",
    )
    first = 0
    for (name, _), entry in zip(_CODENAMES, entries, strict=True):
        hits = rg.search(f"What is project {name} about?", scope_id=scope_id)
        first += bool(hits) and hits[0].entry.id == entry.id
    # no word of the question is in its answer: only the trained model pairs them
    assert first >= 12, first
