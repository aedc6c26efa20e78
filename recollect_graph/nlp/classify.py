"""LLM-free entry-type classification (Recollect's pattern classifier, with its bugs fixed).

The text is first reduced to prose (code fences, shell lines, headings, tables and assignments are
dropped), lower-cased, and scored against weighted patterns per type; each pattern counts at most
once. The best type wins with ``confidence = min(1, score / 5)``; no match gives ``("note", 0.0)``.
Ties go to the earlier type in :data:`TYPE_ORDER`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

TYPE_ORDER = ("decision", "emotional", "milestone", "preference", "problem")

_DROP_LINE = [
    re.compile(r"^\s*```"),
    re.compile(r"^\s*[$#]"),
    re.compile(r"^\s*(cd|source|echo|export|pip|npm|git|python|bash|curl)\s"),
    re.compile(r"^\s*(import|from|def|class|function|const|let|var|return)\s"),
    re.compile(r"^\s*[A-Z_]{2,}="),
    re.compile(r"^\s*\|"),
    re.compile(r"^\s*-{3,}"),
]

_PATTERNS: dict[str, list[tuple[str, int]]] = {
    "decision": [
        (r"let'?s (use|go with|try|pick|choose|switch to)", 3),
        (r"we (should|decided|chose|went with|picked|settled on)", 3),
        (r"i'?m going (to|with)", 2),
        (r"better (to|than|approach|option|choice)", 2),
        (r"instead of", 2),
        (r"rather than", 2),
        (r"because", 1),
        (r"the reason (is|was|being)", 2),
        (r"trade-?off", 2),
        (r"(architecture|approach|strategy|pattern|stack|framework|infrastructure)", 1),
        (r"(configure|default|set (it |this )?to)", 1),
    ],
    "preference": [
        (r"i prefer", 3),
        (r"always use", 3),
        (r"never use", 3),
        (r"i like (to|when|how)", 2),
        (r"i hate (when|how|it when)", 2),
        (r"please (always|never|don'?t)", 2),
        (r"my (rule|preference|style|convention) is", 3),
        (r"we (always|never)", 2),
        (r"(functional|imperative|declarative)\s+(style|programming)", 2),
    ],
    "milestone": [
        (r"it (works?|worked)", 3),
        (r"fixed", 2),
        (r"solved", 2),
        (r"(breakthrough|figured (it )?out|nailed it|cracked (it|the))", 3),
        (r"(finally|first time|first ever|never (done|been|had) before)", 2),
        (r"(discovered|realized|found (out|that)|turns out)", 2),
        (r"the (key (insight|is|was)|trick (is|was))", 2),
        (r"now i (understand|see|get it)", 2),
        (r"(built|created|implemented|shipped|launched|deployed|released)", 1),
        (r"(prototype|proof of concept|demo)", 2),
    ],
    "problem": [
        (r"(bug|error|crash|fail|broke|broken|issue|problem)", 2),
        (r"(doesn'?t work|not working|won'?t.?work)", 3),
        (r"keeps? (failing|crashing|breaking|erroring)", 3),
        (r"root cause", 3),
        (r"the (problem|issue|bug) (is|was)", 2),
    ],
    "emotional": [
        (r"(love|hate|scared|afraid|proud|happy|hurt|sad|angry|worried|lonely)", 2),
        (r"i feel", 3),
        (r"(grateful|thank|amazing|wonderful|beautiful)", 2),
    ],
}
_COMPILED = {
    t: [(re.compile(rf"\b{p}\b", re.IGNORECASE), w) for p, w in pats]
    for t, pats in _PATTERNS.items()
}


def prose(text: str) -> str:
    """Keep the prose lines of ``text`` (drop code, shell, headings, tables, assignments)."""
    out = []
    in_fence = False
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence or not line or any(p.search(raw) for p in _DROP_LINE):
            continue
        out.append(line)
    return "\n".join(out)


def scores(text: str) -> dict[str, int]:
    """Pattern score per type for ``text`` (each pattern counts once)."""
    body = prose(text).lower()
    return {t: sum(w for rx, w in pats if rx.search(body)) for t, pats in _COMPILED.items()}


def classify(text: str, context_hints: Mapping[str, Any] | None = None) -> tuple[str, float]:
    """Classify ``text`` as decision, preference, milestone, problem, emotional or note.

    Args:
        text: The entry content.
        context_hints: Captured context. A git repository lifts a milestone's confidence by 0.1;
            a Markdown file path lifts a note's by 0.2.

    Returns:
        ``(entry_type, confidence)`` with confidence in [0, 1].
    """
    s = scores(text)
    best = max(TYPE_ORDER, key=lambda t: (s[t], -TYPE_ORDER.index(t)))
    if s[best] == 0:
        kind, conf = "note", 0.0
    else:
        kind, conf = best, min(1.0, s[best] / 5.0)
    hints = context_hints or {}
    if kind == "milestone" and hints.get("repo"):
        conf = min(1.0, conf + 0.1)
    elif kind == "note" and str(hints.get("file_path", "")).endswith(".md"):
        conf = min(1.0, conf + 0.2)
    return kind, round(conf, 4)
