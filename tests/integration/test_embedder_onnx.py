"""remember and search on the ONNX int8 embedder, and its vectors next to torch's in one store."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from recollect_graph import Recollect, Settings
from recollect_graph.models import ServerStatus
from recollect_graph.nlp.embedder import Embedder

FACTS = [
    "Postgres connection pool size is 20 in production",
    "The staging cluster is shut down every Friday at 18:00 UTC",
    "Priya covers the on-call rotation in the first week of March",
    "Release builds are signed with the key in the ops vault",
]


def _settings(base: Settings, backend: str) -> Settings:
    return base.model_copy(update={"embedding_backend": backend})


@pytest.fixture(scope="module")
def onnx_rg(neo4j_server: ServerStatus, server_settings: Settings) -> Iterator[Recollect]:
    with Recollect.open(_settings(server_settings, "onnx")) as r:
        yield r


def test_remember_and_search_run_on_the_onnx_backend(onnx_rg: Recollect, scope_id: str) -> None:
    made = onnx_rg.remember_many([{"content": c} for c in FACTS], scope_id=scope_id, owner_id="kai")
    one = onnx_rg.remember("Our CI caches pip wheels per branch", scope_id=scope_id, owner_id="kai")
    assert onnx_rg.embedder.backend == "onnx-int8"
    assert one.embedding_model == "all-MiniLM-L6-v2"
    hits = onnx_rg.search("how big is the database pool?", scope_id=scope_id)
    assert hits[0].entry.id == made[0].id
    hits = onnx_rg.search("who is on call in March?", scope_id=scope_id)
    assert hits[0].entry.id == made[2].id
    hits = onnx_rg.search("are wheels cached in CI?", scope_id=scope_id)
    assert hits[0].entry.id == one.id


def test_torch_and_onnx_vectors_are_interchangeable(
    rg: Recollect, onnx_rg: Recollect, server_settings: Settings, scope_id: str
) -> None:
    torch_emb = Embedder(backend="torch")
    by_torch = Recollect(rg.db, _settings(server_settings, "torch"), embedder=torch_emb)
    made = by_torch.remember_many(
        [{"content": c} for c in FACTS], scope_id=scope_id, owner_id="kai"
    )
    assert torch_emb.backend == "torch"
    # stored by torch, found by an ONNX query
    hits = onnx_rg.search("when is staging switched off?", scope_id=scope_id)
    assert hits[0].entry.id == made[1].id
    a = torch_emb.embed(FACTS)
    b = onnx_rg.embedder.embed(FACTS)
    for x, y in zip(a, b, strict=True):
        assert sum(p * q for p, q in zip(x, y, strict=True)) >= 0.97
        assert math.isclose(sum(v * v for v in y), 1.0, rel_tol=1e-4)
