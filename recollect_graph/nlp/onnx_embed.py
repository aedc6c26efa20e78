"""The ONNX int8 embedding backend: a one-time export of the packaged weights, and its runtime.

The export runs once per model and machine: the sentence-transformers model (transformer + mean or
CLS pooling) is traced with ``torch.onnx`` into one graph whose output is the pooled embedding,
then its weight matrices are quantised to int8 with onnxruntime's dynamic quantisation (per
channel; the feed-forward down-projections stay float, which keeps the vectors within cosine 0.99
of the torch ones on average). The result lands atomically in
``<cache_dir>/embedder-onnx/<fingerprint>/`` with a ``meta.json`` that records the parity measured
at export time against the float torch model on a fixed set of texts. A changed model (files,
sizes, modification times) or a changed export recipe gets a new fingerprint and is re-exported.

At run time only ``onnxruntime``, ``tokenizers`` and ``numpy`` are used: torch is needed for the
export, not for embedding.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: Bump when the export recipe changes (every cached export is then re-made).
EXPORT_VERSION = 1
#: Mean cosine to the torch vectors an export must reach to be chosen by ``auto``.
PARITY_MEAN = 0.99
#: Lowest cosine on any parity text an export may have to be chosen by ``auto``.
PARITY_MIN = 0.95
_SMALL_FILES = (
    "config.json",
    "modules.json",
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "vocab.txt",
    "sentence_bert_config.json",
)
_WEIGHTS = ("model.safetensors", "pytorch_model.bin")
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")

#: Texts the export compares against torch (varied: short, long, names, dates, code, questions).
PARITY_TEXTS = (
    "hello world",
    "ok",
    "Berlin",
    "2019-05-01",
    "Why did the billing job fail last night?",
    "Caroline went to the LGBTQ support group on 7 May 2023 and felt accepted.",
    "Melanie painted a sunrise over the lake and shared it with her kids.",
    "The deploy script reads DATABASE_URL from the environment, not from config.yaml.",
    "def add(a: int, b: int) -> int:\n    return a + b",
    "We decided to use PostgreSQL 16 for the ledger service because of logical replication.",
    "I moved to Berlin in 2019 and work as a nurse at the Charité.",
    "Remember: the staging cluster is shut down every Friday at 18:00 UTC.",
    "What's the capital of Australia? Canberra, not Sydney.",
    "The quick brown fox jumps over the lazy dog.",
    "Error: connection refused (os error 111) while connecting to 127.0.0.1:7687",
    "She adopted two cats, Luna and Oliver, after moving into the new flat.",
    "Our on-call rotation changes on Mondays; Priya covers the first week of March.",
    "pip install --index-url https://download.pytorch.org/whl/cpu torch",
    "Tests must talk to the real Neo4j the session starts; no mocked database.",
    "He is training for a marathon in October and runs 40 km a week.",
    "La réunion est reportée à jeudi prochain.",
    "TODO: retry the webhook with exponential backoff, at most five attempts.",
    "The Q3 revenue grew 12% year over year, driven by the enterprise tier.",
    "Can you remind me what my sister's favourite book is?",
    " ".join(["A long paragraph about gardening, tomatoes, compost and watering."] * 12),
)


class OnnxUnavailable(Exception):
    """The ONNX backend cannot be used here; the message says why (the caller falls back)."""


@dataclass(frozen=True)
class ExportInfo:
    """A cached export: where it is and how closely it matched torch when it was made."""

    directory: Path
    parity_mean: float
    parity_min: float

    @property
    def model_file(self) -> Path:
        """The quantised graph."""
        return self.directory / "model.onnx"

    @property
    def matches_torch(self) -> bool:
        """Whether its vectors met the parity bounds (mean and minimum cosine) at export."""
        return self.parity_mean >= PARITY_MEAN and self.parity_min >= PARITY_MIN


def pooling_mode(path: Path) -> str:
    """The model's pooling, ``mean`` or ``cls``, if the ONNX backend can reproduce it.

    Raises:
        OnnxUnavailable: The model is not a plain transformer + pooling (+ normalise) pipeline.
    """
    try:
        mods = json.loads((path / "modules.json").read_text())
    except (OSError, ValueError) as e:
        raise OnnxUnavailable(f"{path} has no readable modules.json ({e})") from e
    kinds = [str(m.get("type", "")).rsplit(".", 1)[-1] for m in mods]
    if kinds[:2] != ["Transformer", "Pooling"] or any(k not in ("Normalize",) for k in kinds[2:]):
        raise OnnxUnavailable(f"model modules {kinds} are not transformer + pooling")
    if not (path / "tokenizer.json").is_file():
        raise OnnxUnavailable(f"{path} has no fast tokenizer (tokenizer.json)")
    try:
        cfg = json.loads((path / mods[1]["path"] / "config.json").read_text())
    except (OSError, ValueError, KeyError) as e:
        raise OnnxUnavailable(f"cannot read the pooling config of {path} ({e})") from e
    # sentence-transformers 6 writes one ``pooling_mode`` string; earlier versions a flag per mode
    mode = cfg.get("pooling_mode")
    if isinstance(mode, str):
        if mode in ("mean", "cls"):
            return mode
        raise OnnxUnavailable(f"pooling {cfg} is neither plain mean nor CLS")
    if cfg.get("pooling_mode_mean_tokens"):
        modes = {k for k, v in cfg.items() if k.startswith("pooling_mode_") and v}
        if modes == {"pooling_mode_mean_tokens"}:
            return "mean"
    if cfg.get("pooling_mode_cls_token"):
        modes = {k for k, v in cfg.items() if k.startswith("pooling_mode_") and v}
        if modes == {"pooling_mode_cls_token"}:
            return "cls"
    raise OnnxUnavailable(f"pooling {cfg} is neither plain mean nor CLS")


def max_seq_length(path: Path) -> int:
    """The model's input limit in tokens (``sentence_bert_config.json``, else 512)."""
    try:
        return int(json.loads((path / "sentence_bert_config.json").read_text())["max_seq_length"])
    except (OSError, ValueError, KeyError):
        return 512


def fingerprint(path: Path) -> str:
    """A digest of the model (small files by content, weights by size and mtime) and the recipe."""
    h = hashlib.sha256(f"recollect-onnx-export-v{EXPORT_VERSION}".encode())
    for name in _SMALL_FILES:
        f = path / name
        if f.is_file():
            h.update(name.encode() + b"\0" + f.read_bytes())
    for sub in sorted(path.glob("*_Pooling/config.json")):
        h.update(sub.read_bytes())
    for name in _WEIGHTS:
        f = path / name
        if f.is_file():
            st = f.stat()
            h.update(f"{name}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()[:20]


def export_dir(cache_dir: Path, path: Path) -> Path:
    """Where the export of the model at ``path`` is cached."""
    return cache_dir / "embedder-onnx" / fingerprint(path)


def read_export(directory: Path) -> ExportInfo | None:
    """The export in ``directory``, or ``None`` when there is no complete one."""
    try:
        meta = json.loads((directory / "meta.json").read_text())
    except (OSError, ValueError):
        return None
    if not (directory / "model.onnx").is_file():
        return None
    return ExportInfo(directory, float(meta["parity_mean"]), float(meta["parity_min"]))


@contextlib.contextmanager
def file_lock(lock_file: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``lock_file`` (made if missing) across processes."""
    lock_file.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_file, "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def ensure_export(path: Path, cache_dir: Path) -> ExportInfo:
    """The cached export of the model at ``path``, made now if missing (once, under a lock).

    Raises:
        OnnxUnavailable: onnxruntime/onnx/torch are missing or the export failed.
    """
    final = export_dir(cache_dir, path)
    done = read_export(final)
    if done is not None:
        return done
    pooling = pooling_mode(path)
    try:
        import onnx  # noqa: F401
        import onnxruntime  # noqa: F401
    except ImportError as e:
        raise OnnxUnavailable(
            f"{e.name} is not installed (pip install 'recollect-graph[onnx]')"
        ) from e
    with file_lock(final.parent / ".export.lock"):
        done = read_export(final)  # another process may have made it while we waited
        if done is not None:
            return done
        log.info("exporting embedding model %s to ONNX int8 (once; cached in %s)", path, final)
        tmp = Path(tempfile.mkdtemp(prefix=".export-", dir=final.parent))
        try:
            meta = _export(path, tmp, pooling)
            (tmp / "meta.json").write_text(json.dumps(meta, indent=2))
            os.replace(tmp, final)  # atomic: readers see no directory or a complete one
        except OnnxUnavailable:
            raise
        except Exception as e:  # torch.onnx and onnxruntime raise many kinds; one clear line
            raise OnnxUnavailable(f"ONNX export of {path} failed: {e}") from e
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    info = read_export(final)
    if info is None:
        raise OnnxUnavailable(f"ONNX export of {path} left no model in {final}")
    return info


def _export(path: Path, out: Path, pooling: str) -> dict[str, Any]:
    """Trace, quantise and parity-check into ``out`` (a fresh directory)."""
    try:
        import torch
        from transformers import AutoModel
    except ImportError as e:
        raise OnnxUnavailable(f"the one-time ONNX export needs {e.name}") from e
    import numpy as np
    from onnxruntime.quantization import QuantType, quantize_dynamic

    base = AutoModel.from_pretrained(str(path)).eval()

    class Pooled(torch.nn.Module):
        def __init__(self, m: Any) -> None:
            super().__init__()
            self.m = m

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            h = self.m(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state
            if pooling == "cls":
                return h[:, 0]
            mask = attention_mask.unsqueeze(-1).to(h.dtype)
            return (h * mask).sum(1) / mask.sum(1).clamp(min=1e-9)

    wrapped = Pooled(base).eval()
    tok = _tokenizer(path, max_seq_length(path))
    sample = _encode_batch(tok, ["hello world", "a somewhat longer sentence"])
    fp32 = out / "float.onnx"
    axes = {k: {0: "batch", 1: "seq"} for k in _INPUTS}
    with torch.no_grad():
        torch.onnx.export(
            wrapped,
            tuple(torch.from_numpy(sample[k]) for k in _INPUTS),
            str(fp32),
            input_names=list(_INPUTS),
            output_names=["embedding"],
            dynamic_axes={**axes, "embedding": {0: "batch"}},
            opset_version=17,
            dynamo=False,
        )
    import onnx

    names = [n.name for n in onnx.load(str(fp32)).graph.node if n.op_type == "MatMul"]
    keep_float = [n for n in names if "/output/dense" in n and "attention" not in n]
    quantize_dynamic(
        str(fp32),
        str(out / "model.onnx"),
        weight_type=QuantType.QInt8,
        op_types_to_quantize=["MatMul"],
        per_channel=True,
        nodes_to_exclude=keep_float,
    )
    fp32.unlink()
    enc = _encode_batch(tok, list(PARITY_TEXTS))
    with torch.no_grad():
        ref = wrapped(*(torch.from_numpy(enc[k]) for k in _INPUTS)).numpy()
    ref = ref / np.linalg.norm(ref, axis=1, keepdims=True)
    got = OnnxModel(out / "model.onnx", path).encode(list(PARITY_TEXTS))
    cos = (ref * got).sum(axis=1)
    return {
        "export_version": EXPORT_VERSION,
        "source": str(path),
        "pooling": pooling,
        "quantisation": "int8 dynamic, per channel, MatMul only, FFN down-projection float",
        "parity_texts": len(PARITY_TEXTS),
        "parity_mean": float(cos.mean()),
        "parity_min": float(cos.min()),
    }


def _tokenizer(path: Path, max_len: int) -> Any:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(path / "tokenizer.json"))
    tok.enable_truncation(max_length=max_len)
    tok.no_padding()
    return tok


def _encode_batch(tok: Any, texts: Sequence[str]) -> dict[str, Any]:
    import numpy as np

    encs = tok.encode_batch(list(texts))
    width = max(len(e.ids) for e in encs)
    ids = np.zeros((len(encs), width), dtype=np.int64)
    mask = np.zeros((len(encs), width), dtype=np.int64)
    types = np.zeros((len(encs), width), dtype=np.int64)
    for i, e in enumerate(encs):
        n = len(e.ids)
        ids[i, :n] = e.ids
        mask[i, :n] = 1
        types[i, :n] = e.type_ids
    return {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}


#: onnxruntime's idle worker threads spin on the cores after every call by default, taking them
#: from the Neo4j server and the rest of the process: on 2 cores, a whole core during each query
#: that follows an embedding (``benchmarks/embedder_idle_cpu.py``). Off; a benchmark flips it.
ALLOW_SPINNING = False


class OnnxModel:
    """An exported embedding graph with its tokenizer; texts in, unit vectors out.

    Args:
        model_file: The ``model.onnx`` of an export.
        source: The model directory (for the tokenizer and the input limit).
        threads: onnxruntime intra-op threads (0: onnxruntime's default, one per core).
    """

    def __init__(self, model_file: Path, source: Path, *, threads: int = 0) -> None:
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.log_severity_level = 3
        spin = "1" if ALLOW_SPINNING else "0"
        opts.add_session_config_entry("session.intra_op.allow_spinning", spin)
        opts.add_session_config_entry("session.inter_op.allow_spinning", spin)
        self.session = ort.InferenceSession(
            str(model_file), opts, providers=["CPUExecutionProvider"]
        )
        self.max_seq_length = max_seq_length(source)
        self.tokenizer = _tokenizer(source, self.max_seq_length)
        self.dimension = int(self.session.get_outputs()[0].shape[-1])
        #: The inputs the graph takes: a model without token types (MPNet, RoBERTa) has none.
        self.inputs = frozenset(i.name for i in self.session.get_inputs())

    def limit(self, max_tokens: int) -> None:
        """Read at most ``max_tokens`` tokens of each text from now on."""
        self.max_seq_length = max_tokens
        self.tokenizer.enable_truncation(max_length=max_tokens)

    def encode(self, texts: Sequence[str], batch_size: int = 64) -> Any:
        """Unit-length float32 vectors (a numpy array, one row per text, in order).

        Texts are sorted by length before batching (less padding), as sentence-transformers does.
        """
        import numpy as np

        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            batch = _encode_batch(self.tokenizer, [texts[i] for i in idx])
            feed = {k: v for k, v in batch.items() if k in self.inputs}
            vec = self.session.run(None, feed)[0]
            norm = np.linalg.norm(vec, axis=1, keepdims=True)
            out[idx] = vec / np.maximum(norm, 1e-12)
        return out
