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

TYPE_ORDER = (
    "commit", "ci_failure", "session_summary", "reflection", "conversation_turn", "document",
    "decision", "emotional", "milestone", "preference", "problem", "hypothesis", "outcome",
    "observation", "event",
)  # fmt: skip

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
        (r"let'?s (keep|stick with|stay (with|on)|move to|drop|only)", 3),
        (r"we are (keeping|sticking with|staying (with|on)|moving to|dropping|switching to)", 3),
        (
            r"we (should|decided|chose|went with|picked|settled on|agreed|will use|will go with|"
            r"will switch|are going with|are going to use|opted)",
            3,
        ),
        (r"(decid\w*|decision|agree\w*) (to|on|that)", 3),
        (r"^decision:", 3),
        (r"opted (for|to)", 3),
        (r"(going forward|from now on),? (we|all|every)", 2),
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
        (r"(i|he|she|they|we|\w+) prefer", 3),
        (r"(my|his|her|their) (favou?rite|preferred)", 3),
        (r"always use", 3),
        (r"(my|his|her|their|our) go-?to\b", 3),
        (r"\w+ (like|likes|love|loves) (his|her|their|my) ", 2),
        (r"(i|we) (can'?t stand|dislike|do not like)", 2),
        (r"never use", 3),
        (r"i (like|love) (to|when|how|it when)", 2),
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
        (r"(finished|completed|wrapped up|is done|are done|went live|is live|are live)", 2),
        (r"got (the|our|my) first", 3),
        (r"🎉", 2),
        (r"(discovered|realized|found (out|that)|turns out)", 2),
        (r"the (key (insight|is|was)|trick (is|was))", 2),
        (r"now i (understand|see|get it)", 2),
        (r"(built|created|implemented|shipped|launched|deployed|released)", 1),
        (r"(prototype|proof of concept|demo)", 2),
    ],
    "problem": [
        (
            r"(bug|error|crash|fail|failure|broke|broken|issue|problem|regression|outage|leak|"
            r"timeout|exception|panic|hang|flaky|slow)",
            2,
        ),
        (r"(doesn'?t work|not working|won'?t.?work)", 3),
        (r"keeps? (failing|crashing|breaking|erroring)", 3),
        (r"root cause", 3),
        (r"stuck (at|on|in)", 3),
        (
            r"(is|are|was|were|has|have|do|does)(n'?t| not) (arriv|load|respond|show|send|sync|"
            r"start|connect|render|updat|sav|deliver|open|reach)\w*",
            3,
        ),
        (r"(can not|cannot|unable to) (log ?in|sign ?in|connect|access|start|load|open|reach)", 3),
        (r"the (problem|issue|bug) (is|was)", 2),
    ],
    "hypothesis": [
        (r"(i suspect|my guess|hypothesis|i bet|i wonder if|perhaps|maybe|we think)", 3),
        (r"(might|may|could) (be|have|cause|explain)", 2),
        (r"(could it be|is it possible|what if) ", 3),
        (r"(probably|possibly|likely) (because|due|the|a)", 2),
        (r"if we .* then", 2),
    ],
    "outcome": [
        (r"(result|outcome) (is|was|of)", 3),
        (r"(resulted in|led to|ended up|turned out)", 3),
        (r"(reduc|cut|improv|increas|drop|lower|rais|speed)\w* .*(by|to) \d+", 3),
        (r"^(the )?(result|outcome):", 3),
        (r"\d+\s?% (faster|slower|fewer|more|less|lower|higher)", 3),
        (r"went from .* to", 2),
    ],
    "observation": [
        (r"(i|we) (notice|observe|see) (that|the|a)", 3),
        (r"(seem|appear|look|tend) (to|like)", 2),
        (r"(we|i)('| ha)ve (observ|notic|seen)\w* ", 3),
        (r"(it|this|that) seems\b", 2),
        (r"(funny|oddly|curiously|surprisingly|strangely),? ", 2),
        (r"(interesting|apparently|it looks like|noticed|whenever)", 3),
        (r"(usually|often|every time|whenever)", 1),
    ],
    "event": [
        (
            r"(meeting|standup|stand-up|retro|conference|offsite|workshop|interview|demo day|"
            r"launch event|all-hands|kickoff|call) (is|was|on|at|with|tomorrow|today|next)",
            3,
        ),
        (r"(happen|take place|took place|schedule for|hold on|scheduled for)", 3),
        (
            r"(runs?|is|are|will be held) (from|on) (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|"
            r"dec)\w* \d+",
            3,
        ),
        (r"(on|next|last|this) (monday|tuesday|wednesday|thursday|friday|saturday|sunday|week)", 1),
        (r"(yesterday|tomorrow|tonight) (we|i|the)", 1),
    ],
    "reflection": [
        (
            r"(in hindsight|looking back|lesson learn|lessons learn|next time i|next time we|"
            r"i learn|we learn|what went well|what went wrong|retrospective)",
            3,
        ),
        (r"(should have|shouldn'?t have|would have been better)", 4),
        (
            r"(in retrospect|takeaway|if i (did|had|could do) (it|this|that) (again|over)|"
            r"i wish (i|we) had|do (it )?differently)",
            3,
        ),
    ],
    "session_summary": [
        (
            r"(in this session|this session|session summary|today we covered|we covered|"
            r"summary of the session|recap)",
            3,
        ),
        (r"^summary:", 3),
        (r"(today'?s|this|our) (pairing |working |coding |debugging |mob )?session,? (we|i)", 3),
    ],
    "commit": [
        (r"^(fix|feat|chore|refactor|docs|test|perf|build|ci|style|revert)(\([\w-]+\))?!?:", 5),
        (r"^(merge (pull request|branch)|bump \w+ from)", 5),
        (r'^revert "', 5),
    ],
    "ci_failure": [
        (
            r"(ci|pipeline|build|job|workflow|github actions|jenkins)( job)?( [\w-]+)? "
            r"(fail|is red|broke|break)",
            5,
        ),
        (r"(failed|failing) (in|on) ci", 5),
        (r"(ci|check|checks|build|pipeline|workflow)( \w+)? (did|does|do) not pass", 5),
        (r"(mypy|lint|linter|ruff|eslint|pytest|tests?) (reported|found|failed with) \d+", 2),
        (r"exit code [1-9]", 3),
    ],
    "conversation_turn": [
        (r"^(user|assistant|human|ai|system):", 5),
    ],
    "document": [
        (
            r"(this (document|page|guide|readme|spec) (describ|explain|cover)\w*|table of contents|"
            r"^readme|see section|chapter \d)",
            5,
        ),
        (
            r"(this|the following|these) (runbook|rfc|doc|document|guide|readme|spec|page|section|"
            r"sections|tutorial|how-?to|adr|playbook|handbook|manual|chapter|note|notes) "
            r"(describ|explain|cover|walk|propos|outlin|list|document|show|summari)\w*",
            5,
        ),
        (r"^(overview|abstract|introduction|purpose|scope):", 3),
        (r"^[\w.-]+\.(md|rst|txt|adoc):", 4),
    ],
    "emotional": [
        (r"(love|hate|scared|afraid|proud|happy|hurt|sad|angry|worried|lonely)", 2),
        (
            r"(nervous|anxious|frustrated|annoyed|excited|relieved|thrilled|stressed|overwhelmed|"
            r"exhausted|upset|disappointed|furious|delighted|embarrassed|ashamed|terrified|"
            r"heartbroken|fed up|burn(ed|t) out|gutted|ecstatic|miserable)",
            3,
        ),
        (r"i feel", 3),
        (r"(grateful|thank|amazing|wonderful|beautiful)", 2),
    ],
}
_COMPILED = {
    t: [
        (re.compile(rf"\b{p}\b" if not p.startswith("^") else rf"{p}", re.I | re.M), w)
        for p, w in pats
    ]
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


_CONTRACTIONS = ((r"\b(we|i|you|they|he|she|it)'ll\b", r"\1 will"), (r"\bwon'?t\b", "will not"),
                 (r"\b(\w+)n't\b", r"\1 not"), (r"\b(we|you|they)'re\b", r"\1 are"),
                 (r"\bi'm\b", "i am"), (r"\b(\w+)'ve\b", r"\1 have"))  # fmt: skip
_IRREGULAR = {"broke": "break", "went": "go", "chose": "choose", "took": "take", "found": "find",
              "led": "lead", "ran": "run", "saw": "see", "felt": "feel", "built": "build",
              "made": "make", "learnt": "learn", "thought": "think", "was": "be", "were": "be",
              "is": "be", "are": "be", "held": "hold", "cut": "cut"}  # fmt: skip


_KEEP = frozenset({"this", "does", "yes", "its", "has", "was", "less", "thus", "plus", "ours"})


def lemma(word: str) -> str:
    """A rule lemma of an English word (crashes -> crash, failed -> fail, prefers -> prefer)."""
    w = word.lower()
    if w in _IRREGULAR:
        return _IRREGULAR[w]
    if len(w) <= 4:
        plural = w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 3
        return w[:-1] if plural and w not in _KEEP else w
    for suf, rep in (("ies", "y"), ("ied", "y"), ("sses", "ss"), ("ches", "ch"), ("shes", "sh"),
                     ("xes", "x"), ("ing", ""), ("ed", ""), ("es", "e"), ("s", "")):  # fmt: skip
        if w.endswith(suf) and len(w) - len(suf) >= 3 and not w.endswith("ss"):
            base = w[: -len(suf)] + rep
            if (
                suf in ("ing", "ed")
                and len(base) > 3
                and base[-1] == base[-2]
                and base[-1] not in "ls"
            ):
                base = base[:-1]  # stopped -> stop, planned -> plan
            return base
    return w


def lemmas(text: str) -> str:
    """The text with contractions expanded and every word replaced by its lemma."""
    t = text.lower()
    for rx, rep in _CONTRACTIONS:
        t = re.sub(rx, rep, t)
    return re.sub(r"[a-z]+", lambda m: lemma(m.group(0)), t)


def scores(text: str) -> dict[str, int]:
    """Pattern score per type for ``text`` (each pattern counts once, on words or lemmas)."""
    body = prose(text).lower()
    lem = lemmas(body)
    return {
        t: sum(w for rx, w in pats if rx.search(body) or rx.search(lem))
        for t, pats in _COMPILED.items()
    }


def classify(text: str, context_hints: Mapping[str, Any] | None = None) -> tuple[str, float]:
    """Classify ``text`` as one of :data:`TYPE_ORDER`, or ``note``.

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
