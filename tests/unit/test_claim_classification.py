"""Entry-type classification on lemmas: every type reachable, the labelled sentences, issue 18."""

from __future__ import annotations

import json

import pytest

from recollect_graph.nlp.classify import TYPE_ORDER, classify, lemma
from recollect_graph.nlp.type_examples import EXAMPLES_PATH
from recollect_graph.vocabulary import ENTRY_TYPES

DATA = EXAMPLES_PATH


def test_labelled_sentences() -> None:
    rows = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    assert len(rows) >= 150
    right = [classify(r["text"])[0] == r["type"] for r in rows]
    assert sum(right) / len(rows) >= 0.9
    # every documented entry type but "milestone"-like system ones comes out of some sentence
    assert {classify(r["text"])[0] for r in rows} >= set(TYPE_ORDER) | {"note"}


def test_every_documented_type_is_reachable() -> None:
    assert set(TYPE_ORDER) | {"note"} == set(ENTRY_TYPES)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("The worker crashes on empty input.", "problem"),
        ("The nightly import failed again.", "problem"),
        ("Two bugs in the date picker.", "problem"),
        ("Ana prefers rebase merges.", "preference"),
        ("We'll use Vite for the admin app.", "decision"),
    ],
)
def test_inflected_forms(text: str, want: str) -> None:
    assert classify(text)[0] == want


def test_lemma() -> None:
    assert [lemma(w) for w in ("crashes", "failed", "bugs", "prefers", "stopped", "this")] == [
        "crash", "fail", "bug", "prefer", "stop", "this",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # speech-act cues beyond the first patterns' words (sentences not in any labelled set)
        ("Honestly I'm exhausted after this release week.", "emotional"),
        ("Let's stick with Celery for now.", "decision"),
        ("The nightly sync is stuck on the same record.", "problem"),
        ("Invoices aren't loading for customers in Canada.", "problem"),
        ("Could it be that the cache key ignores the locale?", "hypothesis"),
        ("We've noticed that retries spike after every deploy.", "observation"),
        ("In retrospect, the rewrite took twice as long as it needed to.", "reflection"),
        ("This playbook explains how to rotate the signing keys.", "document"),
        ("SECURITY.md: how to report a vulnerability.", "document"),
        ("The PyCon sprint runs from April 3 to 5.", "event"),
        ("My go-to editor is Helix.", "preference"),
        ("Got our first paying customer this morning 🎉", "milestone"),
        ("In today's mob session we wired the importer to the queue.", "session_summary"),
        ('Revert "chore: bump the SDK"', "commit"),
        ("The release check did not pass: ruff found 3 errors.", "ci_failure"),
    ],
)
def test_speech_act_cues(text: str, want: str) -> None:
    assert classify(text)[0] == want
