import math

import pytest

from recollect_graph.errors import ModelUnavailable
from recollect_graph.nlp.embedder import Embedder
from recollect_graph.nlp.spacy_loader import SpacyLoader, resolve_pipeline


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder()


def test_dimension_is_known_without_loading_the_model() -> None:
    e = Embedder()
    assert e.dimension == 384
    assert not e.loaded


def test_embeddings_are_normalised_and_meaningful(embedder: Embedder) -> None:
    vecs = embedder.embed(
        [
            "The build moved from webpack to vite.",
            "We switched the bundler to Vite.",
            "My cat sleeps all day.",
        ]
    )
    assert len(vecs) == 3 and all(len(v) == 384 for v in vecs)
    for v in vecs:
        assert math.isclose(sum(x * x for x in v), 1.0, rel_tol=1e-4)

    def cos(a: list[float], b: list[float]) -> float:
        return sum(x * y for x, y in zip(a, b, strict=True))

    assert cos(vecs[0], vecs[1]) > cos(vecs[0], vecs[2]) + 0.2
    assert embedder.model_id == "all-MiniLM-L6-v2"
    assert embedder.max_tokens == 256


def test_batches_keep_order(embedder: Embedder) -> None:
    """Each text of a batch gets its own vector back, in order, whatever the batch size.

    The int8 ONNX backend quantises activations per batch, so a vector may move in the third
    decimal with its batch-mates: the check is "nearest to its own single embedding, cos > 0.99".
    """
    texts = [f"note number {i} about the {w} service" for i, w in enumerate("abcdefghij")]
    small = Embedder(batch_size=3)
    batched = small.embed(texts)
    singles = [embedder.embed_one(t) for t in texts]
    for i, vec in enumerate(batched):
        sims = [sum(a * b for a, b in zip(vec, s, strict=True)) for s in singles]
        assert max(range(len(sims)), key=sims.__getitem__) == i
        assert sims[i] > 0.99
    assert embedder.embed([]) == []


def test_unknown_embedding_model_is_a_clear_error() -> None:
    with pytest.raises(ModelUnavailable, match="RECOLLECT_EMBEDDING_MODEL"):
        Embedder("/nonexistent/model-dir").embed_one("x")


def test_spacy_default_pipeline_loads_and_finds_entities() -> None:
    loader = SpacyLoader()
    assert not loader.loaded
    doc = loader.load()("Kai moved the billing service to Stripe in Berlin last March.")
    assert loader.loaded
    assert {"Stripe", "Berlin"} & {e.text for e in doc.ents}
    assert loader.meta()["version"].startswith("3.8")


def test_missing_spacy_pipeline_names_the_package_to_install() -> None:
    with pytest.raises(ModelUnavailable, match="pip install en-core-web-lg"):
        resolve_pipeline("en_core_web_lg")
    with pytest.raises(ModelUnavailable, match="RECOLLECT_SPACY_MODEL"):
        SpacyLoader("xx_no_such_pipeline").load()
