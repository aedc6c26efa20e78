"""Model profiles: the similarity scale and the query / passage prefixes the embedder adds."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from recollect_graph.errors import ConfigError
from recollect_graph.nlp.embedder import Embedder
from recollect_graph.nlp.model_profiles import (
    IDENTITY,
    Calibration,
    ModelProfile,
    for_model,
    profile_of,
    read_profile_file,
    write_profile_file,
)
from recollect_graph.settings import Settings


class Recording(Embedder):
    """Records the texts that reach the model; vectors are derived from the text length."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.seen: list[str] = []

    def _encode(self, texts: Sequence[str]) -> list[list[float]]:
        self.seen.extend(texts)
        return [[float(len(t)), 1.0] for t in texts]


def test_the_identity_leaves_cosines_as_they_are() -> None:
    cal = Calibration()
    assert cal.identity
    assert [cal.score(x) for x in (-0.3, 0.0, 0.42, 1.0)] == [-0.3, 0.0, 0.42, 1.0]
    assert cal.raw(0.85) == 0.85


def test_a_calibration_maps_onto_the_reference_scale_and_back() -> None:
    cal = Calibration(offset=-3.122, scale=4.355)
    # e5's unrelated texts (~0.72) land near 0, its related ones (~0.85) near MiniLM's 0.6
    assert cal.score(0.72) == pytest.approx(0.0136, abs=1e-3)
    assert cal.score(0.85) == pytest.approx(0.580, abs=1e-3)
    for s in (0.2, 0.25, 0.45, 0.85):
        assert cal.score(cal.raw(s)) == pytest.approx(s)
    assert cal.score(1.0) == 1.0  # clipped: a cosine-like score never passes 1
    assert cal.score(0.0) == -1.0


def test_known_models_have_profiles_and_others_the_identity() -> None:
    e5 = profile_of("e5-small-v2")
    assert (e5.query_prefix, e5.passage_prefix) == ("query: ", "passage: ")
    assert profile_of("intfloat/e5-small-v2") == e5
    assert profile_of("bge-small-en-v1.5").query_prefix == ""
    assert not profile_of("bge-small-en-v1.5").calibration.identity
    assert profile_of("all-MiniLM-L6-v2") is IDENTITY
    assert profile_of("/models/my-own") is IDENTITY


class _Model:
    """Stands in for a loaded model: only its input limit is read."""

    def __init__(self, limit: int) -> None:
        self.max_seq_length = limit


def test_e5_reads_256_tokens_and_other_models_their_own_limit() -> None:
    e5, long_model = Embedder("e5-small-v2"), _Model(512)
    e5._apply_cut(long_model)
    assert long_model.max_seq_length == 256
    short_model = _Model(128)  # a cut above the model's own limit changes nothing
    e5._apply_cut(short_model)
    assert short_model.max_seq_length == 128
    minilm = _Model(256)
    Embedder("all-MiniLM-L6-v2")._apply_cut(minilm)
    assert minilm.max_seq_length == 256
    assert profile_of("bge-small-en-v1.5").max_tokens is None


def test_the_onnx_tokenizer_is_cut_too() -> None:
    from recollect_graph.nlp.embedder import resolve_model_path
    from recollect_graph.nlp.onnx_embed import OnnxModel, _tokenizer

    source = Path(resolve_model_path("all-MiniLM-L6-v2"))  # any tokenizer will do
    model = OnnxModel.__new__(OnnxModel)  # no graph needed: only its limit and tokenizer
    model.max_seq_length = 512
    model.tokenizer = _tokenizer(source, 512)
    text = "the harbour lights came on one by one " * 80
    assert len(model.tokenizer.encode(text).ids) == 512
    Embedder("e5-small-v2")._apply_cut(model)
    assert model.max_seq_length == 256
    assert len(model.tokenizer.encode(text).ids) == 256


def test_stored_texts_get_the_passage_prefix_and_questions_the_query_prefix() -> None:
    e = Recording("e5-small-v2")
    e.embed(["Caroline went to a support group."])
    e.embed_query("When did Caroline go?")
    e.embed_queries(["two", "questions"])
    e.embed_one("a stored text")
    assert e.seen == [
        "passage: Caroline went to a support group.",
        "query: When did Caroline go?",
        "query: two",
        "query: questions",
        "passage: a stored text",
    ]


def test_a_text_asked_and_stored_is_remembered_apart() -> None:
    e = Recording("e5-small-v2")
    assert e.embed_query("hello") != e.embed_one("hello")  # "query: hello" / "passage: hello"
    e.embed_query("hello")
    assert e.seen == ["query: hello", "passage: hello"]


def test_a_model_without_prefixes_embeds_texts_as_given() -> None:
    e = Recording("all-MiniLM-L6-v2")
    e.embed(["a"])
    e.embed_queries(["b"])
    assert e.seen == ["a", "b"]


def test_index_scores_are_calibrated_in_their_own_units() -> None:
    e = Recording("plain")
    e.profile = ModelProfile(calibration=Calibration(offset=-1.0, scale=2.0))
    # index score (1 + cos) / 2: cosine 0.9 -> 0.95; calibrated cosine 0.8 -> 0.9
    assert e.index_score(0.95) == pytest.approx(0.9)
    assert e.raw_index_score(0.9) == pytest.approx(0.95)
    assert e.similarity(0.9) == pytest.approx(0.8)
    assert e.raw_similarity(0.8) == pytest.approx(0.9)


def test_topic_thresholds_are_turned_into_the_models_own_cosines() -> None:
    from recollect_graph.services.topics.service import Topics

    plain = Topics(None, Recording("all-MiniLM-L6-v2"))  # type: ignore[arg-type]
    assert (plain.params.sim_threshold, plain.params.merge_threshold) == (0.3, 0.75)
    e5 = Recording("e5-small-v2")
    topics = Topics(None, e5)  # type: ignore[arg-type]
    assert e5.similarity(topics.params.sim_threshold) == pytest.approx(0.3)
    assert e5.similarity(topics.params.merge_threshold) == pytest.approx(0.75)
    assert 0.75 < topics.params.sim_threshold < topics.params.merge_threshold < 1.0


def test_a_models_own_weights_apply_where_the_user_set_none() -> None:
    from recollect_graph.settings import Settings

    e5 = for_model(Settings.from_env({"RECOLLECT_EMBEDDING_MODEL": "e5-small-v2"}))
    assert e5.w_keyword == 0.15
    floors = (e5.search_floor, e5.search_floor_confident, e5.search_floor_relaxed)
    assert (*floors, e5.search_floor_time) == (0.35, 0.55, 0.3, 0.3)
    assert e5.w_semantic == Settings().w_semantic  # the profile touches only what it names
    mine = for_model(
        Settings.from_env(
            {"RECOLLECT_EMBEDDING_MODEL": "e5-small-v2", "RECOLLECT_W_KEYWORD": "0.25"}
        )
    )
    assert mine.w_keyword == 0.25  # the user's value wins, even when it is the project default
    minilm = for_model(Settings())
    assert minilm.w_keyword == 0.25 and minilm == Settings()
    # another model replaces the first one's defaults; the user's choices stay theirs
    back = for_model(e5.model_copy(update={"embedding_model": "all-MiniLM-L6-v2"}))
    assert back.w_keyword == 0.25 and back.search_floor == 0.25
    assert "w_keyword" not in back.model_fields_set
    assert for_model(e5) is e5


def test_models_list_shows_what_each_model_brings(tmp_path: Path) -> None:
    import json

    from click.testing import CliRunner

    from recollect_graph.cli.main import cli

    r = CliRunner().invoke(
        cli, ["models", "list", "--json"], env={"RECOLLECT_CACHE_DIR": str(tmp_path)}
    )
    assert r.exit_code == 0, r.output
    rows = {m["name"]: m for m in json.loads(r.stdout)["models"]}
    assert rows["e5-small-v2"]["settings"]["w_keyword"] == 0.15
    assert rows["e5-small-v2"]["settings"]["search_floor"] == 0.35
    assert rows["e5-small-v2"]["query_prefix"] == "query: "
    assert not rows["e5-small-v2"]["ready"]  # nothing fetched into an empty cache
    assert rows["all-MiniLM-L6-v2"]["settings"] == {} and rows["all-MiniLM-L6-v2"]["ready"]
    text = CliRunner().invoke(cli, ["models", "list"], env={"RECOLLECT_CACHE_DIR": str(tmp_path)})
    assert "w_keyword=0.15" in text.stdout


def _model_dir(tmp_path: Path, profile: object) -> Path:
    from recollect_graph.nlp.model_profiles import PROFILE_FILE

    directory = tmp_path / "minilm-tuned"
    directory.mkdir(exist_ok=True)
    (directory / PROFILE_FILE).write_text(json.dumps(profile), encoding="utf-8")
    return directory


def test_a_model_directory_brings_its_own_profile(tmp_path: Path) -> None:
    directory = _model_dir(
        tmp_path,
        {
            "calibration": {"offset": 0.035, "scale": 1.112},
            "settings": {"w_keyword": 0.15, "search_question_seeds": 2},
            "max_tokens": 200,
        },
    )
    prof = profile_of(str(directory))
    assert prof.calibration == Calibration(offset=0.035, scale=1.112)
    assert prof.max_tokens == 200
    assert dict(prof.settings) == {"w_keyword": 0.15, "search_question_seeds": 2}
    settings = for_model(Settings(embedding_model=str(directory)))
    assert settings.w_keyword == 0.15
    assert settings.search_question_seeds == 2 and isinstance(settings.search_question_seeds, int)
    # the user's own value wins over the model's
    assert for_model(Settings(embedding_model=str(directory), w_keyword=0.3)).w_keyword == 0.3
    # a directory without the file is any other model
    assert profile_of(str(tmp_path)) is IDENTITY


def test_a_written_profile_reads_back(tmp_path: Path) -> None:
    prof = ModelProfile(
        query_prefix="q: ",
        calibration=Calibration(offset=-0.1, scale=1.3),
        settings=(("search_floor", 0.3), ("w_keyword", 0.15)),
    )
    tmp_path.joinpath("m").mkdir()
    file = write_profile_file(tmp_path / "m", prof)
    assert read_profile_file(file) == prof


@pytest.mark.parametrize(
    ("profile", "message"),
    [
        ([1, 2], "is a JSON object"),
        ({"scale": 2}, "unknown keys scale"),
        ({"calibration": {"offset": "a"}}, "calibration.offset must be a number"),
        ({"calibration": {"scale": 0}}, "scale must be positive"),
        ({"settings": {"w_nothing": 0.1}}, "'w_nothing' is not a numeric setting"),
        ({"settings": {"embedding_model": 1}}, "'embedding_model' is not a numeric setting"),
        ({"settings": {"search_question_seeds": 2.5}}, "takes a whole number"),
        ({"settings": {"w_keyword": True}}, "must be a number"),
        ({"max_tokens": 0}, "max_tokens must be a positive integer"),
        ({"query_prefix": 3}, "query_prefix must be a string"),
    ],
)
def test_a_bad_profile_file_says_what_is_wrong(
    tmp_path: Path, profile: object, message: str
) -> None:
    directory = _model_dir(tmp_path, profile)
    with pytest.raises(ConfigError, match=message):
        profile_of(str(directory))


def test_an_unreadable_profile_file_says_which(tmp_path: Path) -> None:
    from recollect_graph.nlp.model_profiles import PROFILE_FILE

    (tmp_path / PROFILE_FILE).write_text("{not json", encoding="utf-8")
    with pytest.raises(ConfigError, match="cannot read the model profile"):
        profile_of(str(tmp_path))


def test_models_show_reads_a_directorys_profile(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from recollect_graph.cli.main import cli

    directory = _model_dir(tmp_path, {"calibration": {"offset": 0.035, "scale": 1.112}})
    env = {"RECOLLECT_CACHE_DIR": str(tmp_path)}
    r = CliRunner().invoke(cli, ["models", "show", str(directory), "--json"], env=env)
    assert r.exit_code == 0, r.output
    row = json.loads(r.stdout)
    assert row["calibration"] == {"offset": 0.035, "scale": 1.112}
    assert "recollect-graph-profile.json" in row["source"] and not row["ready"]
    text = CliRunner().invoke(cli, ["models", "show", "e5-small-v2"], env=env)
    assert "w_keyword=0.15" in text.stdout
    bad = CliRunner().invoke(cli, ["models", "show", str(tmp_path / "nowhere")], env=env)
    assert bad.exit_code != 0 and "or a directory" in bad.output


def test_a_directory_named_like_a_packaged_model_is_not_its_profile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the embedder loads all-MiniLM-L6-v2 from its package, whatever the working directory holds
    _model_dir(tmp_path, {"settings": {"w_keyword": 0.15}}).rename(tmp_path / "all-MiniLM-L6-v2")
    monkeypatch.chdir(tmp_path)
    assert profile_of("all-MiniLM-L6-v2") is IDENTITY
    assert profile_of("./all-MiniLM-L6-v2").settings == (("w_keyword", 0.15),)
