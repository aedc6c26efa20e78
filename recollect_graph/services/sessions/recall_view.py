"""How a recall reads: the ClueVector prose of a candidate, the trace as data, the probes.

Presentation only; :mod:`recollect_graph.services.sessions.recall` finds and scores the
sessions.
"""

from __future__ import annotations

from typing import Any

from recollect_graph.models import RecallCandidate, RecallResult

#: The last line of every candidate's prose.
CAVEAT = (
    "Recalled context is past state: it says what was discussed or decided then, not that it "
    "still holds. Re-verify paths, decisions and conventions before acting on them."
)


def ref(x: dict[str, Any]) -> str:
    """How a cross-reference reads in prose: "PR #12", "#87", "commit abc1234", "session s1"."""
    ns, v = x["namespace"], x["value"]
    return {
        "github_pr": f"PR #{v}",
        "github_issue": f"#{v}",
        "git_commit": f"commit {v}",
        "session": f"session {v}",
    }.get(ns, str(v))


def trace_view(trace: dict[str, Any]) -> dict[str, Any]:
    """The trace as plain data (for JSON)."""
    return {
        "identifiers": [
            {"namespace": i.namespace, "value": i.value, "literal": i.literal}
            for i in trace["identifiers"]
        ],
        "unanchored": list(trace.get("unanchored", [])),
        "keywords": sorted(set(trace["content_words"]))[:20],
        "fork_cue": trace["fork_cue"],
        "markers": [f"{m.kind}:{m.value}" for m in trace["markers"]],
        "time": [
            {"expression": w.expression, "start": w.start.isoformat(), "end": w.end.isoformat()}
            for w in trace["windows"]
        ],
    }


def render(result: RecallResult) -> str:
    """The ClueVector prose for the best candidate, or the probes, or the NullMatch notice."""
    if result.candidates:
        return clue_prose(result.candidates[0])
    if result.null_match:
        return (
            "No session matches, even after enriching the description (NullMatch). Possible "
            "causes: the session was never ingested (run `recollect-graph learn agents`), it "
            "predates the transcripts kept, or it happened in another scope. Try describing it "
            "along another dimension, or hand the trace to an inquiry."
        )
    lines = ["Nothing matched yet. Which of these is closer?"]
    for p in result.probes:
        lines.append(f"- {p.question} " + "; ".join(p.options[:6]))
    return "\n".join(lines)


def clue_prose(c: RecallCandidate) -> str:
    """Anamnesis' ClueVector prose: when/where, origin, direction, outcome, resume handle."""
    when = c.started_at.strftime("%d %b %Y %H:%M UTC") if c.started_at else "an unknown date"
    where = f" in {c.cwd}" if c.cwd else ""
    kind = "A sub-agent (fork) session" if c.fork_marker else "A session"
    lines = [
        f"When/where: {when}{where} ({c.confidence} confidence).",
        f"Source: {kind} {c.session_id}" + (f" via {c.origin}" if c.origin else "") + ".",
    ]
    if c.topic:
        lines.append(
            f"About: {c.topic}" + (f" ({', '.join(c.keywords[:5])})" if c.keywords else "") + "."
        )
    if c.fingerprint:
        lines.append(c.fingerprint)
    if c.cross_refs:
        lines.append("Cross-references: " + ", ".join(c.cross_refs[:6]) + ".")
    if c.handoff:
        lines.append(f"Handoff: {c.handoff}")
    if c.resumption_hint:
        who = f" (the parent of fork {c.session_id})" if c.fork_marker else ""
        lines.append(f"Resume{who}: {c.resumption_hint}")
    elif c.fork_marker and c.missing_parent:
        lines.append(
            f"Not resumable: its parent session {c.missing_parent} has no transcript any more; "
            "what remains is this fork's own record and captures."
        )
    elif c.fork_marker and c.parent_pointer:
        lines.append(f"Parent session: {c.parent_pointer} (its working directory is unknown).")
    if c.evidence:
        lines.append("Matched on: " + "; ".join(c.evidence[:5]) + ".")
    lines.append(CAVEAT)
    return "\n".join(lines)
