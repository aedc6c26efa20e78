"""spaCy's English stop words, read without importing spaCy.

``from spacy.lang.en.stop_words import STOP_WORDS`` runs ``spacy/__init__``, which imports
thinc and, through it, torch: seconds of start-up for a list of ~330 words, on every search from
the CLI or the MCP server. The list lives in a plain Python file of the installed spaCy package;
this module finds that file without importing the package (``importlib.util.find_spec`` of a
top-level name does not run it) and reads its two literals (the word block and the contraction
suffixes) with :mod:`ast`, so the words are exactly spaCy's and no copy of them is kept here.
Where the file cannot be read that way (spaCy missing, or its layout changed), the module is
imported as before.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

__all__ = ["english_stop_words"]

_APOSTROPHES = ("\u2018", "\u2019")


def english_stop_words() -> frozenset[str]:
    """The English stop words of spaCy (``spacy.lang.en.stop_words.STOP_WORDS``), frozen."""
    words = _read_without_import()
    if words is not None:
        return words
    from spacy.lang.en.stop_words import STOP_WORDS  # the slow path: imports spaCy

    return frozenset(STOP_WORDS)


def _read_without_import() -> frozenset[str] | None:
    spec = importlib.util.find_spec("spacy")
    if spec is None or not spec.submodule_search_locations:
        return None
    for root in spec.submodule_search_locations:
        path = Path(root) / "lang" / "en" / "stop_words.py"
        if path.is_file():
            return _parse(path.read_text(encoding="utf-8"))
    return None


def _parse(source: str) -> frozenset[str] | None:
    """The stop words of the module's source: ``set(\"\"\"...\"\"\".split())`` plus contractions."""
    block: str | None = None
    contractions: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target = node.targets[0]
        if not isinstance(target, ast.Name):
            continue
        if target.id == "STOP_WORDS":
            texts = [
                n.value
                for n in ast.walk(node.value)
                if isinstance(n, ast.Constant) and isinstance(n.value, str)
            ]
            block = texts[0] if len(texts) == 1 else None
        elif target.id == "contractions" and isinstance(node.value, ast.List):
            contractions = [
                e.value
                for e in node.value.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)
            ]
    if not block:
        return None
    words = set(block.split()) | set(contractions)
    for apostrophe in _APOSTROPHES:
        words |= {c.replace("'", apostrophe) for c in contractions}
    return frozenset(words)
