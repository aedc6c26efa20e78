"""NLP components: the embedder and the spaCy pipeline, both loaded lazily."""

from recollect_graph.nlp.embedder import Embedder
from recollect_graph.nlp.spacy_loader import SpacyLoader

__all__ = ["Embedder", "SpacyLoader"]
