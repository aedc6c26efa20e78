"""The scale suite's data generator and report (no database, no model)."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks import report, scale_data
from benchmarks.scale_data import MAIN, OTHERS, Pool, export_lines, share


def fake_pool(n: int = 50, dims: int = 8) -> Pool:
    pool = object.__new__(Pool)
    rng = np.random.default_rng(0)
    v = rng.normal(size=(n, dims)).astype(np.float32)
    pool.vectors = v / np.linalg.norm(v, axis=1, keepdims=True)
    pool.texts = [f"pool text {i}" for i in range(n)]
    pool.claims = [[] for _ in range(n)]
    pool.model = "fake-model"
    pool.dims = dims
    return pool


@pytest.mark.parametrize("total", [1, 9, 10, 999, 10_000, 100_000, 1_000_000])
def test_scope_shares_add_up_to_the_total(total: int) -> None:
    assert sum(share(s, total) for s in (MAIN, *OTHERS)) == total
    assert share(MAIN, total) >= total * 0.9 - 1


def test_growing_in_steps_gives_the_same_entries_as_loading_at_once() -> None:
    pool = fake_pool()
    idx_all, vec_all = pool.batch(MAIN, 0, 5000)
    idx_a, vec_a = pool.batch(MAIN, 0, 1234)
    idx_b, vec_b = pool.batch(MAIN, 1234, 5000)
    assert np.array_equal(idx_all, np.concatenate([idx_a, idx_b]))
    assert np.allclose(vec_all, np.concatenate([vec_a, vec_b]))
    assert np.allclose(np.linalg.norm(vec_all, axis=1), 1.0, atol=1e-5)
    other_idx, _ = pool.batch(OTHERS[0], 0, 5000)
    assert not np.array_equal(idx_all, other_idx)


def test_export_is_streamed_with_unique_ids_and_edges_to_earlier_entries() -> None:
    pool = fake_pool()
    lines = export_lines(pool, MAIN, 0, 4500)
    assert not isinstance(lines, list)
    header = next(lines)
    assert header["format"] == "recollect-graph-export"
    assert header["scope_id"] == MAIN and header["dimensions"] == pool.dims
    seen: set[str] = set()
    rels = 0
    for line in lines:
        if line["kind"] == "node":
            props = line["props"]
            assert props["id"] not in seen and props["scope_id"] == MAIN
            assert len(props["embedding"]) == pool.dims
            seen.add(props["id"])
        else:
            assert line["type"] in scale_data.EDGE_TYPES
            assert line["start"]["id"] in seen and line["end"]["id"] in seen
            rels += 1
    assert len(seen) == 4500
    assert 0.2 * 4500 < rels < 0.4 * 4500
    assert scale_data.entry_ids(pool, MAIN, [0, 4499])[1] in seen


def test_report_table_lists_every_size_and_marks_missing_figures() -> None:
    rows = [
        {"entries": 10_000, "search": {"hybrid": {"p95_ms": 80.5}}, "store_mb": 12.0},
        {"entries": 100_000, "search": {"hybrid": {"p95_ms": 95.0}}},
    ]
    text = report.table(rows)
    assert "| p95 ms unless noted | 10,000 | 100,000 |" in text
    assert "| hybrid search | 80.5 | 95.0 |" in text
    assert "| store on disk (records + indexes), MB | 12.0 | - |" in text
    assert report.dig(rows[0], ("search", "bm25", "p95_ms")) is None
