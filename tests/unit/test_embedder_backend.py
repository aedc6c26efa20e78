"""Choosing the embedder backend, the ONNX export cache, and exporting a model without token
types (the real model's export: integration)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from recollect_graph.errors import ConfigError
from recollect_graph.nlp import onnx_embed
from recollect_graph.nlp.embedder import Embedder
from recollect_graph.nlp.onnx_embed import (
    OnnxUnavailable,
    ensure_export,
    export_dir,
    fingerprint,
    pooling_mode,
    read_export,
)
from recollect_graph.settings import Settings


def _model_dir(
    base: Path, *, pooling: dict[str, bool | str] | None = None, dense: bool = False
) -> Path:
    """A sentence-transformers style directory (no weights: enough for selection and cache)."""
    base.mkdir(parents=True, exist_ok=True)
    mods = [
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {
            "idx": 1,
            "name": "1",
            "path": "1_Pooling",
            "type": "sentence_transformers.models.Pooling",
        },
    ]
    if dense:
        mods.append(
            {"idx": 2, "name": "2", "path": "2_Dense", "type": "sentence_transformers.models.Dense"}
        )
    mods.append(
        {"idx": 3, "name": "3", "path": "3", "type": "sentence_transformers.models.Normalize"}
    )
    (base / "modules.json").write_text(json.dumps(mods))
    (base / "1_Pooling").mkdir(exist_ok=True)
    cfg = pooling or {"pooling_mode_mean_tokens": True, "pooling_mode_cls_token": False}
    (base / "1_Pooling" / "config.json").write_text(
        json.dumps({"word_embedding_dimension": 8, **cfg})
    )
    (base / "tokenizer.json").write_text("{}")
    (base / "config.json").write_text(json.dumps({"hidden_size": 8}))
    (base / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": 128}))
    return base


def test_an_unknown_backend_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="auto, onnx, torch"):
        Embedder(backend="tensorflow")  # type: ignore[arg-type]


def test_the_setting_reads_the_environment_and_refuses_bad_values() -> None:
    assert Settings.from_env(environ={}).embedding_backend == "auto"
    assert (
        Settings.from_env(environ={"RECOLLECT_EMBEDDER_BACKEND": "torch"}).embedding_backend
        == "torch"
    )
    with pytest.raises(ConfigError, match=r"RECOLLECT_EMBEDDER_BACKEND=.gpu.*auto.*onnx.*torch"):
        Settings.from_env(environ={"RECOLLECT_EMBEDDER_BACKEND": "gpu"})


def test_plain_mean_and_cls_pooling_are_supported_and_others_say_why(tmp_path: Path) -> None:
    assert pooling_mode(_model_dir(tmp_path / "mean")) == "mean"
    cls = {"pooling_mode_mean_tokens": False, "pooling_mode_cls_token": True}
    assert pooling_mode(_model_dir(tmp_path / "cls", pooling=cls)) == "cls"
    with pytest.raises(OnnxUnavailable, match=r"not transformer \+ pooling"):
        pooling_mode(_model_dir(tmp_path / "dense", dense=True))
    both = {"pooling_mode_mean_tokens": True, "pooling_mode_max_tokens": True}
    with pytest.raises(OnnxUnavailable, match="neither plain mean nor CLS"):
        pooling_mode(_model_dir(tmp_path / "max", pooling=both))
    with pytest.raises(OnnxUnavailable, match=r"modules\.json"):
        pooling_mode(tmp_path)


def test_the_pooling_config_of_sentence_transformers_6_is_read_too(tmp_path: Path) -> None:
    # a model saved by sentence-transformers 6 (a model trained here) names one mode
    assert pooling_mode(_model_dir(tmp_path / "mean6", pooling={"pooling_mode": "mean"})) == "mean"
    assert pooling_mode(_model_dir(tmp_path / "cls6", pooling={"pooling_mode": "cls"})) == "cls"
    with pytest.raises(OnnxUnavailable, match="neither plain mean nor CLS"):
        pooling_mode(_model_dir(tmp_path / "max6", pooling={"pooling_mode": "max"}))
    new = _model_dir(tmp_path / "dim6", pooling={"pooling_mode": "mean"})
    cfg = new / "1_Pooling" / "config.json"
    cfg.write_text(json.dumps({"embedding_dimension": 12, "pooling_mode": "mean"}))
    assert Embedder(str(new)).dimension == 12  # read from the config, nothing loaded


def test_a_changed_model_or_recipe_gets_a_new_export_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = _model_dir(tmp_path / "m")
    (model / "model.safetensors").write_bytes(b"w" * 10)
    first = fingerprint(model)
    assert fingerprint(model) == first
    (model / "config.json").write_text(json.dumps({"hidden_size": 16}))
    second = fingerprint(model)
    assert second != first
    os.utime(model / "model.safetensors", ns=(1, 1))  # reinstalled weights
    third = fingerprint(model)
    assert third != second
    monkeypatch.setattr(onnx_embed, "EXPORT_VERSION", onnx_embed.EXPORT_VERSION + 1)
    assert fingerprint(model) != third
    assert export_dir(tmp_path / "cache", model).parent == tmp_path / "cache" / "embedder-onnx"


def test_an_incomplete_export_is_not_used(tmp_path: Path) -> None:
    d = tmp_path / "x"
    d.mkdir()
    (d / "model.onnx").write_bytes(b"")
    assert read_export(d) is None  # no meta.json: an interrupted export
    (d / "meta.json").write_text(json.dumps({"parity_mean": 0.995, "parity_min": 0.97}))
    info = read_export(d)
    assert info is not None and info.matches_torch
    (d / "meta.json").write_text(json.dumps({"parity_mean": 0.95, "parity_min": 0.9}))
    info = read_export(d)
    assert info is not None and not info.matches_torch
    (d / "model.onnx").unlink()
    assert read_export(d) is None


def test_a_cached_export_is_reused_without_exporting_again(tmp_path: Path) -> None:
    model = _model_dir(tmp_path / "m")
    final = export_dir(tmp_path / "cache", model)
    final.mkdir(parents=True)
    (final / "model.onnx").write_bytes(b"graph")
    (final / "meta.json").write_text(json.dumps({"parity_mean": 0.996, "parity_min": 0.98}))
    info = ensure_export(model, tmp_path / "cache")
    assert info.directory == final and info.parity_min == 0.98


def test_a_failed_export_leaves_no_partial_directory(tmp_path: Path) -> None:
    model = _model_dir(tmp_path / "m")  # no weights: transformers cannot load it
    with pytest.raises(OnnxUnavailable, match="failed"):
        ensure_export(model, tmp_path / "cache")
    left = [p.name for p in (tmp_path / "cache" / "embedder-onnx").iterdir()]
    assert left == [".export.lock"]


def test_auto_falls_back_to_torch_with_the_reason_when_onnx_cannot_be_used(
    tmp_path: Path,
) -> None:
    e = Embedder(str(tmp_path / "no-such-model"), cache_dir=tmp_path)
    assert e._load_onnx(str(tmp_path / "no-such-model")) is None
    assert e.fallback_reason is not None and "not a local model directory" in e.fallback_reason
    gpu = Embedder(device="cuda", cache_dir=tmp_path)
    assert gpu._load_onnx(str(tmp_path)) is None
    assert gpu.fallback_reason is not None and "CPU" in gpu.fallback_reason
    assert not (tmp_path / "embedder-onnx").exists()


def _tiny_mpnet(base: Path) -> Path:
    """A two-layer MPNet with random weights and the packaged MiniLM's tokenizer (an MPNet takes
    no token types, unlike the BERT of all-MiniLM-L6-v2)."""
    import torch
    import transformers

    from recollect_graph.nlp.embedder import resolve_model_path

    source = Path(resolve_model_path("all-MiniLM-L6-v2"))
    _model_dir(base)
    (base / "1_Pooling" / "config.json").write_text(
        json.dumps({"word_embedding_dimension": 32, "pooling_mode_mean_tokens": True})
    )
    (base / "tokenizer.json").write_bytes((source / "tokenizer.json").read_bytes())
    torch.manual_seed(0)
    cfg = transformers.MPNetConfig(
        vocab_size=30527,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=514,
    )
    transformers.MPNetModel(cfg).save_pretrained(str(base))
    return base


def test_a_model_without_token_types_exports_and_encodes(tmp_path: Path) -> None:
    model = _tiny_mpnet(tmp_path / "mpnet")
    info = ensure_export(model, tmp_path / "cache")
    onnx = onnx_embed.OnnxModel(info.model_file, model)
    assert "token_type_ids" not in onnx.inputs
    vecs = onnx.encode(["hello world", "Caroline went to the support group on 7 May."])
    assert vecs.shape == (2, 32)
    assert info.parity_mean > 0.95  # int8 of random weights still tracks the float model
