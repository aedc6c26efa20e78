"""When do two claims contradict? Explicit rules, one per conflict type, each with a reason.

- ``attribution_conflict``: the same work item credited to different people.
- ``status_conflict``: the same work item in different states.
- ``value_conflict``: the same subject with two exclusive values (alternatives of one tool
  category, a person's preference between alternatives, a configured value).
- ``polarity_conflict``: the same statement asserted and negated (enabled/disabled in the same
  environment, always/never, owns/no longer owns, uses/stopped using, likes/hates).

Claims about different subjects never conflict.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from recollect_graph.nlp.claim_lexicon import category
from recollect_graph.nlp.values import comparable, normalise, same_value, version_split

PRIORITY = ("attribution_conflict", "status_conflict", "value_conflict", "polarity_conflict")


@dataclass(frozen=True)
class Verdict:
    """A conflict between a new claim and an existing one."""

    type: str
    score: float
    reason: str


def _get(c: Any, k: str) -> Any:
    return c.get(k) if isinstance(c, Mapping) else getattr(c, k)


def _say(c: Any) -> str:
    neg = "not " if _get(c, "polarity") < 0 else ""
    pred = str(_get(c, "predicate")).replace("act:", "")
    qual = f" in {_get(c, 'qualifier')}" if _get(c, "qualifier") else ""
    return f"{_get(c, 'subject_key')} {neg}{pred} {_get(c, 'object_key')}{qual}"


def _compatible_subjects(a: str, b: str) -> float:
    if a == b:
        return 0.9
    if "we" in (a, b):
        return 0.75
    sa, sb = set(a.split()), set(b.split())
    if sa and sb and (sa < sb or sb < sa):
        return 0.75
    return 0.0


def _first_number(text: str) -> str | None:
    m = re.search(r"\d+(?:\.\d+)?", text)
    return m.group(0) if m else None


def judge(new: Any, old: Any) -> Verdict | None:
    """The conflict between claim ``new`` and existing claim ``old``, if any.

    Claims may be :class:`~recollect_graph.nlp.claims.Claim` objects or dicts with the same keys.
    """
    pred = _get(new, "predicate")
    if pred != _get(old, "predicate"):
        return None
    if str(pred).startswith("slot:"):
        return _judge_slot(new, old)
    ns, os_ = _get(new, "subject_key"), _get(old, "subject_key")
    no, oo = _get(new, "object_key"), _get(old, "object_key")
    np_, op = _get(new, "polarity"), _get(old, "polarity")
    why = f"{_say(old)} (existing) vs {_say(new)}"
    tn, to = _get(new, "time"), _get(old, "time")
    if tn and to and tn.lower() != to.lower() and not re.search(r"\d", tn + to):
        return None  # about different times ("this week" vs "next week")
    if pred in ("works_on", "created"):
        if no == oo and ns != os_ and np_ > 0 and op > 0:
            return Verdict(
                "attribution_conflict", 0.9, f"{oo} is credited to {os_} and to {ns}: {why}"
            )
        if no == oo and ns == os_ and np_ != op:
            return Verdict("polarity_conflict", 0.9, why)
        return None
    if pred == "status":
        if ns == os_ and no != oo:
            return Verdict("status_conflict", 0.9, f"{ns} is {oo} and {no}: {why}")
        return None
    if pred == "attribute":
        if ns != os_ or no == oo:
            return None
        qn, qo = _get(new, "qualifier"), _get(old, "qualifier")
        if qn and qo and qn != qo:
            return None
        va, vb = normalise(no, "any"), normalise(oo, "any")
        if va and vb and comparable(va.key, vb.key):
            if same_value(va.key, vb.key):
                return None
        else:
            a, b = _first_number(no), _first_number(oo)
            if (a is not None or b is not None) and a == b:
                return None
        return Verdict("value_conflict", 0.9, f"{ns} has two values: {why}")
    if pred in ("uses", "prefers"):
        compat = _compatible_subjects(ns, os_) if pred == "uses" else (0.9 if ns == os_ else 0.0)
        if not compat:
            return None
        cat_n, cat_o = _get(new, "category"), _get(old, "category")
        if np_ > 0 and op > 0 and no != oo and cat_n and cat_n == cat_o:
            if "also" in (_get(new, "modality"), _get(old, "modality")):
                return None
            return Verdict("value_conflict", compat, f"two {cat_n} choices: {why}")
        if np_ > 0 and op > 0 and no == oo:
            (_, vn), (_, vo) = (
                version_split(str(_get(new, "object"))),
                version_split(str(_get(old, "object"))),
            )
            if vn and vo and not same_value(f"v:x@{vn}", f"v:x@{vo}"):
                return Verdict("value_conflict", compat, f"two versions of {no}: {why}")
        if no == oo and np_ != op:
            if _get(new, "modality") in ("replaced", "over") or _get(old, "modality") in (
                "replaced",
                "over",
            ):
                return Verdict("value_conflict", compat, f"one choice replaced by another: {why}")
            return Verdict("polarity_conflict", compat, why)
        return None
    if pred == "enabled":
        if ns != os_ or np_ == op:
            return None
        qn, qo = _get(new, "qualifier"), _get(old, "qualifier")
        if qn == qo:
            return Verdict("polarity_conflict", 0.9, why)
        if qn is None or qo is None:
            return Verdict("polarity_conflict", 0.7, why)
        return None
    if pred.startswith("act:"):
        compat = _compatible_subjects(ns, os_)
        if compat and no == oo and np_ != op:
            return Verdict("polarity_conflict", compat, why)
    return None


_SLOT_WHY = {
    "value": "the same statement cannot hold two values",
    "employer": "a person works at one place at a time",
    "residence": "a person lives in one place at a time",
    "location": "a thing is in one place at a time",
}


def _judge_slot(new: Any, old: Any) -> Verdict | None:
    """Single-valued slots: the same subject and slot with another value (not additive)."""
    if _get(new, "subject_key") != _get(old, "subject_key"):
        return None
    slot = str(_get(new, "predicate"))[5:]
    no, oo = str(_get(new, "object_key")), str(_get(old, "object_key"))
    np_, op = _get(new, "polarity"), _get(old, "polarity")
    subject = _get(new, "subject")
    if no == oo:
        if np_ != op:
            return Verdict("polarity_conflict", 0.85, f"{subject}: {slot} {oo} asserted and "
                           f"denied: {_say(old)} (existing) vs {_say(new)}")  # fmt: skip
        return None
    if np_ < 0 or op < 0 or "also" in (_get(new, "modality"), _get(old, "modality")):
        return None
    if slot == "value":
        if not comparable(no, oo) or same_value(no, oo):
            return None
    elif category(no) and category(oo) and category(no) != category(oo):
        return None  # a framework and a bundler are not alternatives
    why = _SLOT_WHY.get(slot, f"{slot} takes one value")
    return Verdict(
        "value_conflict",
        0.85,
        f"{subject}: {slot} is {_get(old, 'object')!s} (existing) and {_get(new, 'object')!s} "
        f"({why})",
    )


def best(verdicts: list[Verdict]) -> Verdict | None:
    """The conflict to report for one pair of entries: by type priority, then score."""
    if not verdicts:
        return None
    return sorted(verdicts, key=lambda v: (PRIORITY.index(v.type), -v.score))[0]
