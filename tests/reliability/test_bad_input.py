"""Bad input, table-driven: every case is refused with a clear, one-line :class:`RecollectError`
(the CLI: exit code 1, one ``Error:`` line, no traceback) and leaves the graph unchanged (node
and relationship counts of the whole store before and after). Hostile but valid text (Cypher,
label and relationship injection, control characters) is stored as data, byte for byte.

Cases that the library does not handle yet are ``xfail(strict=True)`` with the bug in the reason:
they start failing (XPASS) the day the bug is fixed, and then the mark goes.
"""

from __future__ import annotations

import json
import os
import random
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from recollect_graph import Recollect, Settings
from recollect_graph.cli.main import cli
from recollect_graph.errors import DatabaseUnavailable, InvalidInput, RecollectError
from tests.helpers import assert_one_line_error
from tests.reliability.support import violations

BIG = "x" * 10_000_000  # 10 MB, one word
BIG_WORDS = "word " * 2_000_000  # 10 MB of words
SURROGATE = "bad \udcff text"  # what a non-UTF-8 byte in argv or a file name decodes to
CONTROL = "nul \x00 bell \x07 esc \x1b[31m del \x7f"
INJECTIONS = [
    "x}) DETACH DELETE n //",
    "`Entry`",
    "Entry`) DETACH DELETE n //",
    "SUPPORTS]->() MATCH (n) DETACH DELETE n //",
    "$(label)",
    "' OR 1=1 //",
]


def _nested(depth: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    cur = out
    for _ in range(depth):
        cur["a"] = {}
        cur = cur["a"]
    return out


NESTED = _nested(5000)


@dataclass
class Ctx:
    """What a case can aim at: a scope with two entries, a session and an operation."""

    rg: Recollect
    scope: str
    a: str
    b: str


@pytest.fixture(scope="module")
def ctx(rg: Recollect) -> Ctx:
    scope = f"bad-{uuid.uuid4().hex[:10]}"
    a = rg.remember("The billing service uses Postgres", scope_id=scope, owner_id="kai")
    b = rg.remember("Deploys need two approvals", scope_id=scope, owner_id="kai", title="deploys")
    rg.sessions.add_turns("chat", [{"id": "t1", "speaker": "Ana", "text": "hello"}],
                          scope_id=scope, owner_id="kai")  # fmt: skip
    return Ctx(rg, scope, a.id, b.id)


def graph_counts(rg: Recollect) -> tuple[int, int]:
    n = rg.query("MATCH (n) RETURN count(n) AS n")[0]["n"]
    r = rg.query("MATCH ()-[r]->() RETURN count(r) AS n")[0]["n"]
    return int(n), int(r)


Call = Callable[[Ctx], Any]


def case(kind: str, name: str, call: Call, bug: str | None = None) -> Any:
    marks = [pytest.mark.xfail(strict=True, reason=f"library bug: {bug}")] if bug else []
    return pytest.param(kind, call, id=f"{kind}: {name}", marks=marks)


def _mem(c: Ctx) -> Any:
    return c.rg.memories.in_scope(c.scope, "kai")


def _rem(c: Ctx, content: Any = "a valid statement", **kw: Any) -> Any:
    return c.rg.remember(content, scope_id=c.scope, owner_id="kai", **kw)


def _each(value: str, fn: Callable[[Ctx, str], Any]) -> Call:
    """A case built over one of several values (binds ``value`` now)."""
    return lambda c: fn(c, value)


def _bad(value: Any) -> Any:
    """A value of the wrong type, passed on purpose."""
    return value


def _turns(c: Ctx, turns: Any, session: Any = "chat") -> Any:
    return c.rg.sessions.add_turns(session, turns, scope_id=c.scope, owner_id="kai")


def _doc(c: Ctx, title: str = "Runbook", **kw: Any) -> Any:
    return c.rg.documents.ingest(title, "# Runbook\n\nRestart the worker.\n", owner_id="kai",
                                 scope_id=c.scope, **kw)  # fmt: skip


#: (case, what the message must name: the field and the limit)
LIMIT_NEEDLES = [
    ("remember 10,000 tags", "more than 100 tags"),
    ("remember 5 MB of tags", "longer than 500 characters"),
    ("remember metadata 200 KB", "metadata is larger than 100000 characters"),
    ("remember description 20,001", "description is longer than 20000"),
    ("remember summary 20,001", "summary is longer than 20000"),
    ("remember_many: the 2nd item's 101 tags", "item 1: tags: more than 100 tags"),
    ("turn speaker 101", "speaker is longer than 100"),
    ("document title 501", "title is longer than 500"),
    ("document collection 201", "collection is longer than 200"),
    ("document metadata 200 KB", "metadata is larger than 100000"),
]


API_CASES = [
    # empty
    case("empty", "remember content", lambda c: _rem(c, "")),
    case("empty", "remember whitespace", lambda c: _rem(c, " \n\t ")),
    case("empty", "remember scope", lambda c: c.rg.remember("x", scope_id="", owner_id="k")),
    case("empty", "remember owner", lambda c: c.rg.remember("x", scope_id=c.scope, owner_id=" ")),
    case("empty", "search query", lambda c: c.rg.search("", scope_id=c.scope)),
    case("empty", "check_contradiction", lambda c: c.rg.check_contradiction("", scope_id=c.scope)),
    case("empty", "recall", lambda c: c.rg.recall("  ", scope_id=c.scope)),
    case("empty", "turn text", lambda c: _turns(c, [{"id": "t", "speaker": "a", "text": ""}])),
    case("empty", "session id", lambda c: _turns(c, [{"id": "t", "speaker": "a", "text": "x"}], "")),
    case("empty", "capture", lambda c: _mem(c).capture("")),
    case("empty", "memories.search", lambda c: _mem(c).search("")),
    case("empty", "memories.delete", lambda c: _mem(c).delete([])),
    case("empty", "reflect summary", lambda c: _mem(c).reflect("s", "")),
    case("empty", "handoff what", lambda c: c.rg.sessions.handoff("chat", scope_id=c.scope, what="")),
    case("empty", "invalidate pattern", lambda c: c.rg.invalidate(c.scope, "", reason="r")),
    case("empty", "supersede entity", lambda c: c.rg.supersede(c.scope, "", "uses", "vite")),
    case("empty", "query", lambda c: c.rg.query("  ")),
    case("empty", "learn sources", lambda c: c.rg.learn(c.scope, owner_id="k", sources=[])),
    case("empty", "check_invariants scope", lambda c: c.rg.check_invariants("")),
    # huge: 10 MB
    case("huge", "remember content", lambda c: _rem(c, BIG_WORDS)),
    case("huge", "remember one 10 MB word", lambda c: _rem(c, BIG)),
    case("huge", "remember title", lambda c: _rem(c, title=BIG)),
    case("huge", "remember source_id", lambda c: _rem(c, source_id=BIG)),
    case("huge", "remember scope", lambda c: c.rg.remember("x", scope_id=BIG, owner_id="k")),
    case("huge", "search query", lambda c: c.rg.search(BIG_WORDS, scope_id=c.scope)),
    case("huge", "check_contradiction", lambda c: c.rg.check_contradiction(BIG_WORDS, scope_id=c.scope)),
    case("huge", "recall", lambda c: c.rg.recall(BIG_WORDS, scope_id=c.scope)),
    case("huge", "capture", lambda c: _mem(c).capture(BIG_WORDS)),
    case("huge", "turn text", lambda c: _turns(c, [{"id": "t", "speaker": "a", "text": BIG_WORDS}])),
    case("huge", "turn id", lambda c: _turns(c, [{"id": BIG, "speaker": "a", "text": "x"}])),
    case("huge", "session id", lambda c: _turns(c, [{"id": "t", "speaker": "a", "text": "x"}], BIG)),
    case("huge", "connect reason", lambda c: c.rg.connect(c.a, c.b, "supports", reason=BIG, scope_id=c.scope)),
    case("huge", "supersede value", lambda c: c.rg.supersede(c.scope, "build", "uses", BIG)),
    case("huge", "invalidate pattern", lambda c: c.rg.invalidate(c.scope, BIG, reason="r")),
    case("huge", "handoff", lambda c: c.rg.sessions.handoff("chat", scope_id=c.scope, what=BIG)),
    case("huge", "reflect summary", lambda c: _mem(c).reflect("s", BIG)),
    case("huge", "get id", lambda c: c.rg.get(BIG, scope_id=c.scope)),
    # over a stated limit (MAX_* in services/kernel/validation.py)
    case("limit", "remember 10,000 tags", lambda c: _rem(c, tags=[f"t{i}" for i in range(10_000)])),
    case("limit", "remember 101 tags", lambda c: _rem(c, tags=[f"t{i}" for i in range(101)])),
    case("limit", "remember 5 MB of tags", lambda c: _rem(c, tags=[f"{i}" + "x" * 50_000 for i in range(100)])),
    case("limit", "remember a 501-character tag", lambda c: _rem(c, tags=["t" * 501])),
    case("limit", "remember metadata 200 KB", lambda c: _rem(c, metadata={"k": "x" * 200_000})),
    case("limit", "remember context_hints 200 KB", lambda c: _rem(c, context_hints={"k": "x" * 200_000})),
    case("limit", "remember description 20,001", lambda c: _rem(c, description="d" * 20_001)),
    case("limit", "remember summary 20,001", lambda c: _rem(c, summary="s" * 20_001)),
    case("limit", "remember title 301", lambda c: _rem(c, title="t" * 301)),
    case("limit", "remember source_id 2,001", lambda c: _rem(c, source_id="s" * 2001)),
    case("limit", "remember_many: the 2nd item's 101 tags",
         lambda c: c.rg.remember_many([{"content": "a fine first item"}, {"content": "second", "tags": [f"t{i}" for i in range(101)]}],
                                      scope_id=c.scope, owner_id="kai")),
    case("limit", "turn speaker 101", lambda c: _turns(c, [{"id": "t", "speaker": "s" * 101, "text": "x"}])),
    case("limit", "turn text 100,001", lambda c: _turns(c, [{"id": "t", "speaker": "a", "text": "w " * 50_001}])),
    case("limit", "session title 301", lambda c: c.rg.sessions.add_turns("chat", [{"id": "t9", "speaker": "a", "text": "x"}], scope_id=c.scope, owner_id="kai", title="t" * 301)),
    case("limit", "document title 501", lambda c: _doc(c, title="t" * 501)),
    case("limit", "document collection 201", lambda c: _doc(c, collection="c" * 201)),
    case("limit", "document metadata 200 KB", lambda c: _doc(c, metadata={"k": "x" * 200_000})),
    case("limit", "document source_id 2,001", lambda c: _doc(c, source_id="s" * 2001)),
    # binary
    case("binary", "remember bytes", lambda c: _rem(c, b"\x00\xff\xfe binary")),
    case("binary", "search bytes", lambda c: c.rg.search(_bad(b"\xff"), scope_id=c.scope)),
    case("binary", "turn text bytes", lambda c: _turns(c, [{"id": "t", "speaker": "a", "text": b"\xff"}])),
    case("binary", "capture bytes", lambda c: _mem(c).capture(b"\xff\xfe")),
    # invalid UTF-8 (a lone surrogate cannot be encoded)
    case("invalid_utf8", "remember", lambda c: _rem(c, SURROGATE)),
    case("invalid_utf8", "search", lambda c: c.rg.search(SURROGATE, scope_id=c.scope)),
    # control characters where they are not allowed
    case("control", "relation", lambda c: c.rg.connect(c.a, c.b, "supports\x00", scope_id=c.scope)),
    case("control", "entry_type", lambda c: _rem(c, entry_type="note\n")),
    case("control", "delete reason", lambda c: _mem(c).delete([c.a], reason="outdated\x1b")),
    # deeply nested
    case("nested", "metadata 5,000 deep", lambda c: _rem(c, metadata=NESTED)),
    case("nested", "context_hints 5,000 deep", lambda c: _rem(c, context_hints=NESTED)),
    case("nested", "turns nested lists", lambda c: _turns(c, [[[[{"id": "t"}]]]])),
    # wrong types
    case("wrong_type", "content int", lambda c: _rem(c, 42)),
    case("wrong_type", "content list", lambda c: _rem(c, ["a"])),
    case("wrong_type", "tags str", lambda c: _rem(c, tags="abc")),
    case("wrong_type", "tags ints", lambda c: _rem(c, tags=[1, 2])),
    case("wrong_type", "metadata list", lambda c: _rem(c, metadata=[1])),
    case("wrong_type", "confidence str", lambda c: _rem(c, confidence="high")),
    case("wrong_type", "valid_from int", lambda c: _rem(c, valid_from=20260101)),
    case("wrong_type", "unknown field", lambda c: _rem(c, colour="blue")),
    case("wrong_type", "remember_many str", lambda c: c.rg.remember_many(_bad("abc"), scope_id=c.scope, owner_id="k")),
    case("wrong_type", "remember_many ints", lambda c: c.rg.remember_many(_bad([42]), scope_id=c.scope, owner_id="k")),
    case("wrong_type", "get_many str", lambda c: c.rg.get_many("abc", scope_id=c.scope)),
    case("wrong_type", "get_many None", lambda c: c.rg.get_many(_bad(None), scope_id=c.scope)),
    case("wrong_type", "search limit str", lambda c: c.rg.search("x", scope_id=c.scope, limit="5")),
    case("wrong_type", "connect weight str", lambda c: c.rg.connect(c.a, c.b, "supports", weight=_bad("1"), scope_id=c.scope)),
    case("wrong_type", "turns str", lambda c: _turns(c, "not a list")),
    case("wrong_type", "turn without speaker", lambda c: _turns(c, [{"id": "t", "text": "x"}])),
    case("wrong_type", "memories.insert dict", lambda c: _mem(c).insert({"title": "x"})),
    case("wrong_type", "memories.delete str", lambda c: _mem(c).delete("abc")),
    case("wrong_type", "reflect lessons str", lambda c: _mem(c).reflect("s", "sum", lessons="abc")),
    case("wrong_type", "valid_from text", lambda c: _rem(c, valid_from="yesterday")),
    case("wrong_type", "search as_of text", lambda c: c.rg.search("x", scope_id=c.scope, as_of="soon")),
    # out of range
    case("out_of_range", "confidence 2", lambda c: _rem(c, confidence=2)),
    case("out_of_range", "confidence nan", lambda c: _rem(c, confidence=float("nan"))),
    case("out_of_range", "score 11", lambda c: _rem(c, score=11)),
    case("out_of_range", "score inf", lambda c: _rem(c, score=float("inf"))),
    case("out_of_range", "half_life 0", lambda c: _rem(c, half_life_days=0)),
    case("out_of_range", "valid_to before valid_from",
         lambda c: _rem(c, valid_from="2026-02-01T00:00:00Z", valid_to="2026-01-01T00:00:00Z")),
    case("out_of_range", "batch_size 0", lambda c: c.rg.remember_many([{"content": "q"}], scope_id=c.scope, owner_id="k", batch_size=0)),
    case("out_of_range", "batch_size -5", lambda c: c.rg.remember_many([{"content": "q"}], scope_id=c.scope, owner_id="k", batch_size=-5)),
    case("out_of_range", "search limit 0", lambda c: c.rg.search("x", scope_id=c.scope, limit=0)),
    case("out_of_range", "search limit 10^9", lambda c: c.rg.search("x", scope_id=c.scope, limit=10**9)),
    case("out_of_range", "search hops 9", lambda c: c.rg.search("x", scope_id=c.scope, hops=9)),
    case("out_of_range", "search min_score -1", lambda c: c.rg.search("x", scope_id=c.scope, min_score=-1)),
    case("out_of_range", "recent limit 0", lambda c: c.rg.recent(c.scope, limit=0)),
    case("out_of_range", "recent limit 10^12", lambda c: c.rg.recent(c.scope, limit=10**12)),
    case("out_of_range", "connect weight 2", lambda c: c.rg.connect(c.a, c.b, "supports", weight=2, scope_id=c.scope)),
    case("out_of_range", "conflicts limit 0", lambda c: c.rg.conflicts(c.scope, limit=0)),
    case("out_of_range", "memories.search limit 0", lambda c: _mem(c).search("x", limit=0)),
    case("out_of_range", "pending limit -1", lambda c: _mem(c).pending_suggestions(limit=-1)),
    case("out_of_range", "check_invariants limit 0", lambda c: c.rg.check_invariants(c.scope, limit=0)),
    case("out_of_range", "learn batch_size 0", lambda c: c.rg.learners.learn(c.scope, "k", ["notes"], batch_size=0)),
    # unknown enums
    case("unknown_enum", "entry_type", lambda c: _rem(c, entry_type="gossip")),
    case("unknown_enum", "source", lambda c: _rem(c, source="root")),
    case("unknown_enum", "source_type", lambda c: _rem(c, source_type="hacked")),
    case("unknown_enum", "valence", lambda c: _rem(c, emotional_valence="angry")),
    case("unknown_enum", "on_conflict", lambda c: _rem(c, on_conflict="explode")),
    case("unknown_enum", "relation", lambda c: c.rg.connect(c.a, c.b, "likes", scope_id=c.scope)),
    case("unknown_enum", "outcome", lambda c: c.rg.outcome([c.a], "meh", scope_id=c.scope)),
    case("unknown_enum", "supersede relation", lambda c: c.rg.supersede(c.scope, "build", "hates", "vite")),
    case("unknown_enum", "memories format", lambda c: _mem(c).search("x", format="xml")),
    case("unknown_enum", "memories sort_by", lambda c: _mem(c).search("x", sort_by="random")),
    case("unknown_enum", "delete reason", lambda c: _mem(c).delete([c.a], reason="because")),
    case("unknown_enum", "capture source_type", lambda c: _mem(c).capture("x", source_type="rumour")),
    case("unknown_enum", "reflect field", lambda c: _mem(c).reflect("s", "sum", secrets=["x"])),
    case("unknown_enum", "learner", lambda c: c.rg.learn(c.scope, owner_id="k", sources=["nope"])),
    # Cypher-looking strings where only known values are allowed, and ids that are not there
    *[case("injection", f"relation {s!r}", _each(s, lambda c, s: c.rg.connect(c.a, c.b, s, scope_id=c.scope))) for s in INJECTIONS],
    *[case("injection", f"entry_type {s!r}", _each(s, lambda c, s: _rem(c, entry_type=s))) for s in INJECTIONS],
    *[case("injection", f"supersede relation {s!r}", _each(s, lambda c, s: c.rg.supersede(c.scope, "x", s, "y"))) for s in INJECTIONS],
    *[case("cypher", f"forget id {s!r}", _each(s, lambda c, s: c.rg.forget(s, scope_id=c.scope))) for s in INJECTIONS],
    *[case("cypher", f"get id {s!r}", _each(s, lambda c, s: c.rg.get(s, scope_id=c.scope))) for s in INJECTIONS],
    *[case("cypher", f"undo id {s!r}", _each(s, lambda c, s: c.rg.undo(s, scope_id=c.scope))) for s in INJECTIONS],
    *[case("cypher", f"fork_parent {s!r}", _each(s, lambda c, s: c.rg.fork_parent(s, scope_id=c.scope))) for s in INJECTIONS],
    *[case("cypher", f"connect to {s!r}", _each(s, lambda c, s: c.rg.connect(c.a, s, "supports", scope_id=c.scope))) for s in INJECTIONS],
    case("cypher", "query that writes", lambda c: c.rg.query("MATCH (n) DETACH DELETE n")),
    case("cypher", "query that writes, hidden in a CALL",
         lambda c: c.rg.query("CALL { MATCH (n:Entry) SET n.x = 1 } RETURN 1 AS one")),
    case("cypher", "query with a syntax error", lambda c: c.rg.query("MATCH (n RETURN n")),
    case("cypher", "invalidate pattern without words", lambda c: c.rg.invalidate(c.scope, "})//", reason="r")),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "call"), API_CASES)
def test_bad_api_input_is_refused_and_changes_nothing(ctx: Ctx, kind: str, call: Call) -> None:
    before = graph_counts(ctx.rg)
    with pytest.raises(RecollectError) as err:
        call(ctx)
    msg = str(err.value)
    assert msg and "\n" not in msg and len(msg) < 1000, msg[:300]
    assert not isinstance(err.value, DatabaseUnavailable), msg  # bad input is not an outage
    assert graph_counts(ctx.rg) == before


@pytest.mark.parametrize(("name", "needle"), LIMIT_NEEDLES, ids=[n for n, _ in LIMIT_NEEDLES])
def test_a_refused_limit_names_the_field_and_the_limit(ctx: Ctx, name: str, needle: str) -> None:
    call = next(p.values[1] for p in API_CASES if p.id == f"limit: {name}")
    before = graph_counts(ctx.rg)
    with pytest.raises(InvalidInput, match=re.escape(needle)):
        call(ctx)
    assert graph_counts(ctx.rg) == before


def test_values_at_their_limits_are_stored(ctx: Ctx) -> None:
    """100 tags of 500 characters, 100,000 characters of metadata JSON, a 20,000-character
    description and a 300-character title are stored as given."""
    tags = [f"{i:03d}" + "t" * 497 for i in range(100)]
    meta = {"k": "m" * (100_000 - len('{"k": ""}'))}
    e = _rem(ctx, "An entry at every limit", tags=tags, metadata=meta, description="d" * 20_000,
             title="t" * 300)  # fmt: skip
    try:
        got = ctx.rg.get(e.id, scope_id=ctx.scope)
        assert (got.tags, got.metadata, got.title) == (tags, meta, "t" * 300)
    finally:
        ctx.rg.forget(e.id, scope_id=ctx.scope)


def test_an_import_over_a_limit_is_refused(ctx: Ctx) -> None:
    """An export edited to give an entry 101 tags is refused (the line named), writing nothing."""
    lines = list(ctx.rg.export(ctx.scope))
    entry = next(x for x in lines if x.get("kind") == "node" and "Entry" in x["labels"])
    entry["props"]["tags"] = [f"t{i}" for i in range(101)]
    before = graph_counts(ctx.rg)
    with pytest.raises(InvalidInput, match="more than 100 tags"):
        ctx.rg.import_(lines, scope_id=f"{ctx.scope}-copy")
    assert graph_counts(ctx.rg) == before


def test_a_binary_file_named_md_is_not_ingested(ctx: Ctx, tmp_path: Path) -> None:
    """200 KB of random bytes named ``.md``: refused alone; skipped with the reason in a folder
    (the text files beside it are ingested); a stray Latin-1 byte in a text file is not refused."""
    junk = random.Random(7).randbytes(200_000)
    (tmp_path / "junk.md").write_bytes(junk)
    (tmp_path / "nul.txt").write_bytes(b"plain text\x00with a NUL\n")
    (tmp_path / "good.md").write_text("# Good\n\nThe worker restarts nightly.\n")
    (tmp_path / "latin.md").write_bytes(
        b"# Caf\xe9\n\n" + b"One stray Latin-1 byte in a note. " * 20
    )
    before = graph_counts(ctx.rg)
    with pytest.raises(InvalidInput, match=r"not UTF-8 text|NUL byte"):
        ctx.rg.documents.ingest_path(tmp_path / "junk.md", owner_id="kai", scope_id=ctx.scope)
    assert graph_counts(ctx.rg) == before
    report = ctx.rg.documents.ingest_path(tmp_path, owner_id="kai", scope_id=ctx.scope)
    assert sorted(d.path.rsplit("/", 1)[-1] for d in report.documents if d.path) == [
        "good.md",
        "latin.md",
    ]
    reasons = dict(s.split(": ", 1) for s in report.skipped)
    assert set(reasons) == {"junk.md", "nul.txt"}
    assert "binary" in reasons["junk.md"] and "NUL byte at byte 10" in reasons["nul.txt"]
    chunks = ctx.rg.query("MATCH (c:Chunk {scope_id: $s}) RETURN count(c) AS n", {"s": ctx.scope})
    assert 0 < chunks[0]["n"] < 10  # two small documents, no 394 chunks of garbage
    for d in report.documents:
        ctx.rg.documents.forget(d.document_id, scope_id=ctx.scope)


def test_the_notes_learner_skips_a_binary_note(ctx: Ctx, tmp_path: Path) -> None:
    (tmp_path / "good.md").write_text("# Deploys\n\nDeploys need two approvals from ops.\n")
    (tmp_path / "junk.md").write_bytes(bytes(range(256)) * 40)
    scope = f"{ctx.scope}-notes"
    res = ctx.rg.learners.learn(scope, "kai", {"notes": {"folder": str(tmp_path)}})["notes"]
    assert res.learned == 1 and not res.errors
    assert res.skipped["not a text file (binary, or not UTF-8)"] == 1
    assert [e.content.splitlines()[0] for e in ctx.rg.recent(scope)] == ["Deploys"]


def test_a_huge_word_in_valid_content_is_stored(ctx: Ctx) -> None:
    """Content far under its limit is stored even when one word is 20,000 characters long (its
    claim's key is longer than a range index holds: it is cut and hashed, not refused)."""
    text = "Kai uses " + "Q" * 20_000
    e = ctx.rg.remember(text, scope_id=ctx.scope, owner_id="kai")
    try:
        assert ctx.rg.get(e.id, scope_id=ctx.scope).content == text
        again = ctx.rg.remember(text, scope_id=ctx.scope, owner_id="kai")
        assert (again.id, again.created) == (e.id, False)
        assert violations(ctx.rg, ctx.scope) == {}
    finally:
        ctx.rg.forget(e.id, scope_id=ctx.scope)


PER_ITEM_CASES = [
    case("empty", "insert without title", lambda c: _mem(c).insert([{"content": "x"}])),
    case("huge", "insert 10 MB title", lambda c: _mem(c).insert([{"title": BIG}])),
    case("out_of_range", "insert score 99", lambda c: _mem(c).insert([{"title": "t", "score": 99}])),
    case("limit", "insert 101 tags", lambda c: _mem(c).insert([{"title": "tagged", "tags": [f"t{i}" for i in range(101)]}])),
    case("limit", "insert description 20,001", lambda c: _mem(c).insert([{"title": "long", "description": "d" * 20_001}])),
    case("wrong_type", "insert item str", lambda c: _mem(c).insert(["just text"])),
    case("wrong_type", "feedback useful str", lambda c: _mem(c).feedback([{"id": c.b, "useful": "yes"}])),
    case("out_of_range", "feedback confidence 11", lambda c: _mem(c).feedback([{"id": c.b, "useful": True, "confidence": 11}])),
    case("cypher", "feedback unknown id", lambda c: _mem(c).feedback([{"id": INJECTIONS[0], "useful": True}])),
    case("huge", "feedback 10 MB id", lambda c: _mem(c).feedback([{"id": BIG, "useful": True}])),
    case("unknown_enum", "review action", lambda c: _mem(c).review_suggestions([{"id": "x", "action": "maybe"}])),
    case("injection", "insert link relation", lambda c: _mem(c).insert([], links=[{"source_memory_id": c.a, "target_memory_id": c.b, "relation_type": INJECTIONS[0]}])),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "call"), PER_ITEM_CASES)
def test_per_item_apis_report_bad_items_and_change_nothing(ctx: Ctx, kind: str, call: Call) -> None:
    """``insert``, ``feedback`` and ``review`` judge each item on its own and report errors."""
    before = graph_counts(ctx.rg)
    out = call(ctx)
    errors = out.get("errors") or [r for r in out.get("results", []) if r["status"] == "error"]
    assert errors, out
    assert all("\n" not in str(e) for e in errors)
    assert graph_counts(ctx.rg) == before


HOSTILE = [*INJECTIONS, "MATCH (n) DETACH DELETE n", "'; DROP TABLE entries; --", CONTROL,
           "emoji 😀, RTL \u202e override, zero\u200bwidth", "line one\nline two\r\n\tindented"]  # fmt: skip


@pytest.mark.parametrize("text", HOSTILE, ids=[repr(t)[:40] for t in HOSTILE])
def test_hostile_but_valid_text_is_stored_as_data(rg: Recollect, text: str) -> None:
    scope = f"hostile-{uuid.uuid4().hex[:8]}"
    outside = rg.query("MATCH (n) WHERE n.scope_id IS NULL OR n.scope_id <> $s RETURN count(n) AS n",
                       {"s": scope})  # fmt: skip
    e = rg.remember(f"note: {text}", scope_id=scope, owner_id=text, tags=[text], source_id=text,
                    title=text, metadata={text: text})  # fmt: skip
    got = rg.get(e.id, scope_id=scope)
    assert (got.content, got.owner_id, got.tags, got.source_id, got.title, got.metadata) == (
        f"note: {text}".strip(), text.strip(), [text.strip()], text.strip(), text.strip(),
        {text: text},
    )  # fmt: skip
    rg.sessions.add_turns(text, [{"id": text, "speaker": "Ana", "text": f"said: {text}"}],
                          scope_id=scope, owner_id="kai", index=False)  # fmt: skip
    assert [t["text"] for t in rg.sessions.turns(text.strip(), scope_id=scope)] == [
        f"said: {text}".strip()
    ]
    assert rg.search(text, scope_id=scope) is not None
    after = rg.query("MATCH (n) WHERE n.scope_id IS NULL OR n.scope_id <> $s RETURN count(n) AS n",
                     {"s": scope})  # fmt: skip
    assert after == outside  # nothing outside the scope was touched
    assert violations(rg, scope) == {}


@pytest.mark.heavy
def test_content_at_its_stated_limit_is_stored_and_one_more_character_is_refused(
    rg: Recollect,
) -> None:
    scope = f"limit-{uuid.uuid4().hex[:8]}"
    text = ("The team uses Postgres for billing. " * 6000)[:200_000]
    assert len(rg.remember(text, scope_id=scope, owner_id="kai").content) == 200_000
    with pytest.raises(RecollectError, match="200000"):
        rg.remember(text + "!", scope_id=scope, owner_id="kai")


# -- the command line ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("bad-files")
    out = {
        "invalid_utf8": d / "invalid.jsonl",
        "binary": d / "binary.bin",
        "nested": d / "nested.json",
        "not_json": d / "not.json",
        "empty": d / "empty.jsonl",
        "wrong_shape": d / "shape.json",
        "turns_bad": d / "turns.jsonl",
        "binary_md": d / "junk.md",
        "nul_jsonl": d / "nul.jsonl",
        "many_tags": d / "tags.jsonl",
    }
    out["binary_md"].write_bytes(random.Random(3).randbytes(200_000))
    out["nul_jsonl"].write_bytes(b'{"content": "fine"}\n{"content": "nul \x00 inside"}\n')
    out["many_tags"].write_text(
        '{"content": "fine"}\n'
        + json.dumps({"content": "x", "tags": [str(i) for i in range(10_000)]})
    )
    out["invalid_utf8"].write_bytes(b'{"content": "caf\xe9 \xff\xfe"}\n')
    out["binary"].write_bytes(bytes(range(256)) * 8)
    out["nested"].write_text('{"content": "x", "metadata": ' + '{"a": ' * 5000 + "1" + "}" * 5001)
    out["not_json"].write_text("[{content: unquoted}")
    out["empty"].write_text("")
    out["wrong_shape"].write_text('[42, "text", null]')
    out["turns_bad"].write_text('{"id": "t1", "text": ""}\n')
    return out


@pytest.fixture
def cli_run(cli_env: Settings, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    monkeypatch.delenv("RECOLLECT_SCOPE", raising=False)
    monkeypatch.setenv("RECOLLECT_OWNER", "kai")
    runner = CliRunner()
    return lambda *args: runner.invoke(cli, list(args))


F = "{file}"  # placeholder: replaced by the path of the named bad file
CLI_CASES: list[Any] = [
    ("empty", ["remember", "", "--scope", "S"], "is empty", None, None),
    ("empty", ["remember", "x", "--scope", ""], "--scope", None, None),
    ("empty", ["search", "", "--scope", "S"], "non-empty", None, None),
    ("empty", ["memory", "capture", " ", "--scope", "S"], "is empty", None, None),
    ("empty", ["remember", "--file", F, "--scope", "S"], "empty", "empty", None),
    ("huge", ["search", "q" * 20_000, "--scope", "S"], "longer than", None, None),
    ("huge", ["remember", "w " * 110_000, "--scope", "S"], "longer than", None, None),
    ("binary", ["remember", "--file", F, "--scope", "S"], "", "binary",
     None),
    ("invalid_utf8", ["remember", "--file", F, "--scope", "S"], "", "invalid_utf8",
     None),
    ("invalid_utf8", ["memory", "insert", "--file", F, "--scope", "S"], "", "invalid_utf8",
     None),
    ("invalid_utf8", ["sessions", "add", "s1", F, "--scope", "S"], "", "invalid_utf8",
     None),
    ("invalid_utf8", ["remember", SURROGATE, "--scope", "S"], "", None,
     None),
    ("nested", ["remember", "--file", F, "--scope", "S"], "", "nested",
     None),
    ("binary", ["docs", "ingest", F, "--scope", "S"], "not a text file", "binary_md", None),
    ("binary", ["remember", "--file", F, "--scope", "S"], "NUL byte at byte 37", "nul_jsonl", None),
    ("limit", ["remember", "--file", F, "--scope", "S"], "item 1: tags: more than 100 tags", "many_tags", None),
    ("limit", ["remember", "x", "--scope", "S", *[a for i in range(101) for a in ("--tag", f"t{i}")]],
     "more than 100 tags", None, None),
    ("nested", ["remember", "x", "--scope", "S", "--metadata", '{"a": ' * 5000 + "1" + "}" * 5000],
     "nested too deeply", None, None),
    ("wrong_type", ["remember", "--file", F, "--scope", "S"], "not valid JSON", "not_json", None),
    ("wrong_type", ["remember", "--file", F, "--scope", "S"], "", "wrong_shape", None),
    ("wrong_type", ["sessions", "add", "s1", F, "--scope", "S"], "", "turns_bad", None),
    ("wrong_type", ["remember", "x", "--scope", "S", "--metadata", "[1, 2]"], "JSON object", None, None),
    ("out_of_range", ["recent", "--scope", "S", "--limit", "0"], "between", None, None),
    ("out_of_range", ["search", "q", "--scope", "S", "--limit", "100000"], "between", None, None),
    ("out_of_range", ["connect", "a", "b", "supports", "--weight", "7", "--scope", "S"], "between", None, None),
    ("out_of_range", ["remember", "x", "--scope", "S", "--confidence", "9"], "between", None, None),
    ("unknown_enum", ["outcome", "meh", "id1"], "", None, None),
    ("unknown_enum", ["remember", "x", "--scope", "S", "--type", "gossip"], "entry_type", None, None),
    ("unknown_enum", ["memory", "delete", "id1", "--reason", "because", "--scope", "S"], "reason", None, None),
    ("unknown_enum", ["supersede", "build", "hates", "vite", "--scope", "S"], "relation", None, None),
    *[("injection", ["connect", "a", "b", s], "relation must be one of", None, None) for s in INJECTIONS],
    *[("injection", ["remember", "x", "--scope", "S", "--type", s], "entry_type", None, None) for s in INJECTIONS[:3]],
    ("cypher", ["cypher", "MATCH (n) DETACH DELETE n"], "writes", None, None),
    ("cypher", ["cypher", "MATCH (n RETURN n"], "", None, None),
    ("cypher", ["forget", INJECTIONS[0], "--scope", "S"], "no entry", None, None),
    ("cypher", ["undo", INJECTIONS[2], "--scope", "S"], "no operation", None, None),
    ("cypher", ["invariants", "--scope", " "], "scope_id", None, None),
]  # fmt: skip


def _cli_param(i: int, kind: str, args: list[str], needle: str, file: str | None,
               bug: str | None) -> Any:  # fmt: skip
    marks = [pytest.mark.xfail(strict=True, reason=f"library bug: {bug}")] if bug else []
    label = " ".join(a if len(a) < 30 else a[:27] + "..." for a in args[:3])
    return pytest.param(kind, args, needle, file, id=f"{i:02d} {kind}: {label}", marks=marks)


@pytest.mark.parametrize(
    ("kind", "args", "needle", "file"),
    [_cli_param(i, *c) for i, c in enumerate(CLI_CASES)],
)
def test_bad_cli_input_exits_1_with_one_error_line(
    rg: Recollect,
    cli_run: Callable[..., Result],
    files: dict[str, Path],
    kind: str,
    args: list[str],
    needle: str,
    file: str | None,
) -> None:
    scope = f"badcli-{uuid.uuid4().hex[:8]}"
    real = [scope if a == "S" else str(files[file]) if a == F and file else a for a in args]
    before = graph_counts(rg)
    r = cli_run(*real)
    if r.exit_code == 2:  # a choice option (click.Choice) refuses the value before anything runs
        last = r.stderr.strip().splitlines()[-1]
        assert last.startswith("Error: Invalid value") and "is not one of" in last, r.stderr
        assert "Traceback" not in r.output
    else:
        assert_one_line_error(r, needle)
    assert graph_counts(rg) == before


def test_the_figures(request: pytest.FixtureRequest) -> None:
    """How many bad inputs of each kind the tables try (docs/reliability.md quotes these)."""
    kinds: dict[str, int] = {}
    for table in (API_CASES, PER_ITEM_CASES):
        for p in table:
            kinds[p.values[0]] = kinds.get(p.values[0], 0) + 1
    for c in CLI_CASES:
        kinds[c[0]] = kinds.get(c[0], 0) + 1
    kinds["hostile_stored_as_data"] = len(HOSTILE)
    if os.environ.get("RECOLLECT_PRINT_FIGURES"):
        print("\nbad inputs tried per kind:", dict(sorted(kinds.items())))
    assert sum(kinds.values()) > 150
