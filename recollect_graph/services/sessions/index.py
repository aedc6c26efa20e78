"""The pure side of sessions: a session's recall index from its turns, and fork resolution.

No database here: :func:`derive_index` turns a session's turns into keywords, topics, key
utterances, decisions, an extractive summary and the identifier/marker counts the recall tracks
scan; :func:`resolve_chain` decides where a fork resumes from its ``FORKED_FROM`` chain.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from recollect_graph.ids import turn_entry_id
from recollect_graph.nlp import cues
from recollect_graph.results import ForkParent
from recollect_graph.services.kernel.hashing import content_hash

TERMS_PER_SESSION = 60


def resolve_chain(chain: list[dict[str, Any]]) -> ForkParent:
    """Where a fork resumes: the first non-fork ancestor in its ``FORKED_FROM`` chain.

    The chain's last node has no stored parent; if it is itself a fork, its ``parent_pointer``
    names a session whose record is gone: the candidate is not resumable (Anamnesis' branch 2/3).
    """
    me = chain[0]
    fork = bool(me.get("fork_marker"))
    top = next((n for n in chain[1:] if not n.get("fork_marker")), None) if fork else me
    parent = top if fork else None
    missing = chain[-1].get("parent_pointer") if top is None else None
    cwd = top.get("cwd") if top is not None else None
    return ForkParent(
        session_id=me["id"],
        fork_marker=fork,
        chain=[n["id"] for n in chain[1:]],
        parent_pointer=parent["id"] if parent is not None else missing,
        parent_cwd=parent.get("cwd") if parent is not None else None,
        resumable=bool(cwd),
        resume=_resume(top["id"], cwd) if top is not None else None,
        missing_parent=missing,
    )


def _resume(session_id: str, cwd: str | None) -> str | None:
    return f"cd {cwd} && claude --resume {session_id}" if cwd else None


def derive_index(session: Mapping[str, Any], turns: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A session's recall index from its turns (pure; see the module docstring)."""
    texts = [str(t["text"]) for t in turns if t.get("text")]
    user = [str(t["text"]) for t in turns if t.get("role") == "user" and t.get("text")]
    artifacts = list(session.get("artifacts") or [])
    everything = "\n".join([*texts, *artifacts])
    counts = cues.terms(everything)
    keywords = cues.keywords(counts)
    topics = _topics(texts, counts)
    initial = str(session.get("initial_request") or (user[0] if user else "") or "")
    decisions = cues.decisions(texts)
    key = _key_utterances(user, counts, initial)
    last_assistant = next(
        (str(t["text"]) for t in reversed(turns) if t.get("role") == "assistant"), ""
    )
    outcome = cues.sentences(last_assistant)[:1]
    summary_parts = [f"Asked: {initial[:240]}" if initial else ""]
    if decisions:
        summary_parts.append(f"Decided: {decisions[0][:240]}")
    if outcome:
        summary_parts.append(f"Ended: {outcome[0][:240]}")
    summary = " ".join(p for p in summary_parts if p)
    identifiers: Counter[tuple[str, str]] = Counter()
    turn_identifiers: dict[str, Counter[tuple[str, str]]] = {}
    for t in turns:
        c = Counter((i.namespace, i.value) for i in cues.identifiers(str(t.get("text") or "")))
        if c:
            turn_identifiers[str(t["id"])] = c
            identifiers.update(c)
    for a in artifacts:
        identifiers.update((i.namespace, i.value) for i in cues.identifiers(a))
    marks: Counter[tuple[str, str]] = Counter()
    for txt in texts:
        marks.update((m.kind, m.value) for m in cues.markers(txt))
    for term, n in counts.most_common(TERMS_PER_SESSION):
        marks[("term", term)] = n
    head = ". ".join(p for p in (session.get("title"), initial[:500], ", ".join(keywords)) if p)
    return {
        "keywords": keywords,
        "topics": topics,
        "key_utterances": key,
        "decisions": decisions,
        "summary": summary,
        "head": head,
        "identifiers": identifiers,
        "turn_identifiers": turn_identifiers,
        "markers": marks,
        "hash": content_hash(everything),
    }


def _topics(texts: Sequence[str], counts: Counter[str], *, limit: int = 3) -> list[str]:
    """Repeated two-word phrases of content terms, else the top keywords."""
    pairs: Counter[str] = Counter()
    for t in texts:
        words = [w.lower() for w in cues.TOKEN.findall(t)]
        for a, b in itertools.pairwise(words):
            if a in counts and b in counts and a != b:
                pairs[f"{a} {b}"] += 1
    out = [p for p, n in pairs.most_common() if n >= 2][:limit]
    for k in cues.keywords(counts, limit=limit):
        if len(out) >= limit:
            break
        if not any(k in p for p in out):
            out.append(k)
    return out


def _key_utterances(user: Sequence[str], counts: Counter[str], initial: str) -> list[str]:
    top = {t for t, _ in counts.most_common(20)}
    scored = []
    for i, u in enumerate(user):
        words = set(cues.terms(u))
        score = len(words & top) + 2 * len(cues.markers(u)) + (3 if i == 0 else 0)
        scored.append((score, i, u))
    picked = sorted(sorted(scored, key=lambda t: (-t[0], t[1]))[:4], key=lambda t: t[1])
    out = [u[:280] for _, _, u in picked]
    if initial and initial[:280] not in out:
        out.insert(0, initial[:280])
    return out[:5]


def turn_embed_text(speaker: str | None, role: str | None, text: str) -> str:
    """What a turn's vector is of: its text, after the speaker's name unless an assistant's."""
    return text if role == "assistant" else f"{speaker}: {text}"


#: A turn of at most this many characters gets a context vector: a short turn ("Charades and a
#: scavenger hunt!") leans on the turn before it, a longer one says what it is about itself (and
#: embedding it twice would double the cost of the longest texts).
CONTEXT_TURN_CHARS = 300
#: How much of the turn before goes into the context: its end, where a question usually is.
CONTEXT_BEFORE_CHARS = 300


def turn_context_text(
    turn: str, before: str | None, *, role: str | None = None, before_role: str | None = None
) -> str | None:
    """What a turn's context vector is of: the turn, then the end of the turn before it.

    ``turn`` and ``before`` are embedding texts (:func:`turn_embed_text`), ``role`` and
    ``before_role`` their speakers' roles. None when there is no turn before it, the turn is
    longer than :data:`CONTEXT_TURN_CHARS`, or either turn is an assistant's: as for the graph's
    ``NEXT`` signal, in a chat with an assistant every turn follows a request or an answer, and
    on LongMemEval the context of user turns changed no ranking for the better.
    """
    if not before or len(turn) > CONTEXT_TURN_CHARS or "assistant" in (role, before_role):
        return None
    return f"{turn}\n{before[-CONTEXT_BEFORE_CHARS:]}"


def turn_contexts(
    turns: Sequence[Mapping[str, Any]], last: Mapping[str, Any], scope_id: str, session_id: str
) -> dict[str, tuple[str, str]]:
    """Each turn's context (:func:`turn_context_text`) when ``turns`` are appended to a session.

    ``turns`` are ``add_turns``' prepared turns in order (``tid``, ``speaker``, ``role``,
    ``text``); ``last`` is the session's last stored turn (``last_id``, ``last_content``,
    ``last_speaker``, ``last_role``; all null for a new session): the turn before the first one.

    Returns:
        ``{turn id: (context text, entry id of the turn before)}`` for the turns that have one.
    """
    out: dict[str, tuple[str, str]] = {}
    prev_text: str | None = None
    prev_id: str | None = None
    prev_role: str | None = None
    if last.get("last_id") and last.get("last_content") is not None:
        prev_id, prev_role = last["last_id"], last.get("last_role")
        prev_text = turn_embed_text(last.get("last_speaker"), prev_role, last["last_content"])
    for t in turns:
        text = turn_embed_text(t["speaker"], t["role"], t["text"])
        ctx = turn_context_text(text, prev_text, role=t["role"], before_role=prev_role)
        if ctx is not None and prev_id is not None:
            out[t["tid"]] = (ctx, prev_id)
        prev_text, prev_role = text, t["role"]
        prev_id = turn_entry_id(scope_id, session_id, t["tid"])
    return out


def mean_vector(vectors: Sequence[Sequence[float]]) -> list[float]:
    """The normalised mean of unit vectors (a session vector from its parts)."""
    n = len(vectors)
    acc = [sum(v[i] for v in vectors) / n for i in range(len(vectors[0]))]
    norm = sum(x * x for x in acc) ** 0.5 or 1.0
    return [x / norm for x in acc]
