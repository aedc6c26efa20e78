"""Adapting the embedder to your own pairs: `models train` and its pairs file."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from recollect_graph.cli.main import cli
from recollect_graph.errors import InvalidInput
from recollect_graph.nlp.finetune import (
    MIN_PAIRS,
    PROFILE_SETTINGS,
    TrainingPair,
    finetune,
    read_pairs,
)
from recollect_graph.nlp.model_profiles import PROFILE_FILE, profile_of

#: Codenames a team uses for its projects: nothing a general model could know.
_CODENAMES = [
    ("heron", "the quarterly budget review with finance"),
    ("lantern", "migrating the billing database to the new cluster"),
    ("granite", "hiring two backend engineers before spring"),
    ("willow", "the customer survey about onboarding emails"),
    ("comet", "rewriting the mobile app's login screen"),
    ("anchor", "the office move to the third floor"),
    ("saffron", "negotiating the cloud contract renewal"),
    ("pebble", "cutting the test suite's run time in half"),
    ("orchid", "the security audit of the payment service"),
    ("falcon", "translating the docs into Spanish and German"),
    ("maple", "the summer internship programme"),
    ("quartz", "replacing the logging pipeline"),
    ("tundra", "the holiday sales forecast"),
    ("ember", "upgrading every laptop to the new OS"),
    ("coral", "the partner API rate limits"),
    ("juniper", "archiving old tickets from the support desk"),
]


def _pairs_file(tmp_path: Path) -> Path:
    lines = [
        json.dumps({"query": f"What is project {name} about?", "positive": f"We worked on {what}."})
        for name, what in _CODENAMES
    ]
    file = tmp_path / "pairs.jsonl"
    file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return file


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json\n", r"pairs.jsonl:1: not JSON"),
        ('{"query": "a"}\n', r":1: positive must be a non-empty string"),
        ('{"query": "a", "positive": "  "}\n', "positive must be a non-empty string"),
        ('{"query": "a", "positive": "b", "score": 1}\n', "unknown keys score"),
        ('["a", "b"]\n', "a pair is an object"),
        ('{"query": "a", "positive": "b"}\n', f"1 pairs; at least {MIN_PAIRS}"),
    ],
)
def test_a_bad_pairs_file_names_the_line_and_the_problem(
    tmp_path: Path, content: str, message: str
) -> None:
    file = tmp_path / "pairs.jsonl"
    file.write_text(content, encoding="utf-8")
    with pytest.raises(InvalidInput, match=message):
        read_pairs(file)


def test_pairs_read_with_their_optional_fields(tmp_path: Path) -> None:
    file = _pairs_file(tmp_path)
    extra = {"query": "q", "positive": "p", "negative": "n", "group": "g"}
    file.write_text(file.read_text() + "\n" + json.dumps(extra) + "\n", encoding="utf-8")
    pairs = read_pairs(file)
    assert len(pairs) == len(_CODENAMES) + 1
    assert pairs[-1] == TrainingPair("g", "q", "p", "n")
    assert pairs[0].group == "" and pairs[0].negative is None


def test_training_refuses_what_it_cannot_do_before_loading_a_model(tmp_path: Path) -> None:
    pairs = read_pairs(_pairs_file(tmp_path))
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "x").write_text("x")
    with pytest.raises(InvalidInput, match="not an empty directory"):
        finetune(pairs, tmp_path / "used", base="all-MiniLM-L6-v2")
    with pytest.raises(InvalidInput, match="prefixed text"):
        finetune(pairs, tmp_path / "new", base="e5-small-v2")
    with pytest.raises(InvalidInput, match="rank and epochs"):
        finetune(pairs, tmp_path / "new", base="all-MiniLM-L6-v2", rank=0)
    with pytest.raises(InvalidInput, match="at least"):
        finetune(pairs[:3], tmp_path / "new", base="all-MiniLM-L6-v2")
    assert not (tmp_path / "new").exists()


def _ranks(model_dir: str, pairs: list[TrainingPair]) -> list[int]:
    from recollect_graph.nlp.embedder import Embedder

    emb = Embedder(model_dir, backend="torch")
    q = np.asarray(emb.embed_queries([p.query for p in pairs]))
    d = np.asarray(emb.embed([p.positive for p in pairs]))
    scores = q @ d.T
    return [int((row > row[i]).sum()) for i, row in enumerate(scores)]


def test_models_train_learns_the_pairs_and_writes_a_usable_profile(tmp_path: Path) -> None:
    file = _pairs_file(tmp_path)
    out = tmp_path / "minilm-mine"
    args = ["models", "train", str(file), "--out", str(out), "--rank", "4", "--epochs", "6"]
    r = CliRunner().invoke(cli, [*args, "--lr", "5e-3", "--json"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    assert report["pairs"] == len(_CODENAMES) and len(report["losses"]) == 6
    assert report["losses"][-1] < report["losses"][0]
    assert report["adapter_parameters"] > 0
    assert "calibration rests on few texts" in report["warning"]  # 16 pairs
    assert (out / PROFILE_FILE).is_file()
    prof = profile_of(str(out))
    assert dict(prof.settings) == PROFILE_SETTINGS
    assert prof.calibration.scale > 0
    pairs = read_pairs(file)
    before, after = _ranks("all-MiniLM-L6-v2", pairs), _ranks(str(out), pairs)
    # the codenames mean nothing to the base model; trained, it puts each answer first
    assert sum(r == 0 for r in after) > sum(r == 0 for r in before)
    assert sum(r == 0 for r in after) >= 12
    again = CliRunner().invoke(cli, [*args, "--json"])
    assert again.exit_code != 0 and "not an empty directory" in again.output
