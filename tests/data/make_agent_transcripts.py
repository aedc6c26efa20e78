"""Generate the coding-agent transcript fixture under tests/data/agent_transcripts/.

    python tests/data/make_agent_transcripts.py

Rewrites, identically on every run (stdlib only, all randomness seeded from the session keys):
  tests/data/agent_transcripts/            a Claude Code config dir: projects/<slug>/...
  tests/data/agent_transcripts/manifest.json
  tests/data/agent_transcripts/README.md
  tests/data/recall_questions.jsonl

The conversations are hand-written in agent_transcripts_content.py; this file only lays them out
as Claude Code JSONL records, derives ids and timestamps, counts turns with the documented rules
(reading the written files back, like a parser would) and checks the fixture's promises.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import random
import re
import shutil
import sys
import uuid
import zlib
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUT = HERE / "agent_transcripts"
QUESTIONS_PATH = HERE / "recall_questions.jsonl"
CONFIG_DIR = "/home/kai/.claude"  # where the fixture pretends to live (agent_transcript_path)
DEFAULT_MODEL = "claude-sonnet-4-5"

_spec = importlib.util.spec_from_file_location(
    "agent_transcripts_content", HERE / "agent_transcripts_content.py"
)
assert _spec is not None and _spec.loader is not None
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)


# --- ids ------------------------------------------------------------------------------------------


def _digest(*parts: str) -> bytes:
    return hashlib.sha256("\x1f".join(("recollect-fixture", *parts)).encode()).digest()


def uuid4_for(*parts: str) -> str:
    """A deterministic, well-formed UUID4 string."""
    return str(uuid.UUID(bytes=_digest(*parts)[:16], version=4))


def session_id(key: str) -> str:
    return uuid4_for("session", key)


def agent_id(key: str) -> str:
    return _digest("agent", key).hex()[:8]


_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def b62(*parts: str, n: int = 22) -> str:
    x = int.from_bytes(_digest(*parts), "big")
    out = []
    for _ in range(n):
        x, r = divmod(x, 62)
        out.append(_B62[r])
    return "".join(out)


_PLACEHOLDER = re.compile(r"\{(sid|aid):([a-z0-9_]+)\}")


def subst(value: Any) -> Any:
    """Replace {sid:key} / {aid:key} placeholders in every string of a nested structure."""
    if isinstance(value, str):
        return _PLACEHOLDER.sub(
            lambda m: session_id(m[2]) if m[1] == "sid" else agent_id(m[2]), value
        )
    if isinstance(value, list):
        return [subst(v) for v in value]
    if isinstance(value, tuple):
        return tuple(subst(v) for v in value)
    if isinstance(value, dict):
        return {k: subst(v) for k, v in value.items()}
    return value


def slug_for(cwd: str) -> str:
    return cwd.replace("/", "-")


def iso(ts: datetime) -> str:
    return ts.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ts.microsecond // 1000:03d}Z"


# --- lookup tables --------------------------------------------------------------------------------

PROJECTS = {p["key"]: p for p in C.PROJECTS}
SESSIONS = {s["key"]: s for s in C.SESSIONS}
AGENTS = {a["key"]: a for a in C.AGENTS}


def project_of(key: str) -> dict[str, str]:
    item = SESSIONS.get(key) or AGENTS[key]
    return PROJECTS[item["project"]]


# --- rendering ------------------------------------------------------------------------------------


@dataclass
class Ctx:
    key: str
    session_id: str  # sessionId written in every record
    cwd: str
    entrypoint: str
    version: str
    branch: str
    model: str
    sidechain: bool
    agent_id: str | None  # set for subagent transcripts
    spawner_id: str  # id a SubagentStop capture of a child would carry as session_id
    root_session: str  # top-level session id this transcript hangs under
    slug: str
    rng: random.Random
    now: datetime
    prev: str | None = None
    n: int = 0
    lines: list[str] = field(default_factory=list)
    part2: list[str] = field(default_factory=list)
    split: bool = False
    last_assistant_uuid: str | None = None
    last_text: str = ""

    def tick(self, lo: float, hi: float) -> str:
        self.now += timedelta(seconds=self.rng.uniform(lo, hi))
        self.now = self.now.replace(microsecond=self.now.microsecond // 1000 * 1000)
        return iso(self.now)

    def emit(self, line: str) -> None:
        (self.part2 if self.split else self.lines).append(line)

    def new_uuid(self) -> str:
        self.n += 1
        return uuid4_for("record", self.key, str(self.n))

    def base(self, type_: str, ts: str) -> dict[str, Any]:
        rec: dict[str, Any] = {
            "type": type_,
            "uuid": self.new_uuid(),
            "parentUuid": self.prev,
            "sessionId": self.session_id,
            "timestamp": ts,
            "cwd": self.cwd,
            "isSidechain": self.sidechain,
            "entrypoint": self.entrypoint,
            "version": self.version,
            "gitBranch": self.branch,
        }
        if self.agent_id:
            rec["agentId"] = self.agent_id
        return rec

    def write(self, rec: dict[str, Any]) -> None:
        self.prev = rec["uuid"]
        self.emit(json.dumps(rec, ensure_ascii=False, separators=(",", ":")))


def absolutize(ctx: Ctx, tool: dict[str, Any]) -> dict[str, Any]:
    inp = dict(tool["input"])
    for k in ("file_path", "path"):
        if k in inp and not inp[k].startswith("/"):
            inp[k] = f"{ctx.cwd}/{inp[k]}"
    return inp


def default_result(name: str, inp: dict[str, Any]) -> str:
    if name == "Edit":
        return f"The file {inp['file_path']} has been updated successfully."
    if name == "Write":
        return f"File created successfully at: {inp['file_path']}"
    if name == "Read":
        return "     1\t# (file contents elided in this fixture)\n"
    return ""


def bad_line(ctx: Ctx, kind: str) -> str:
    if kind == "truncated":
        rec = ctx.base("assistant", iso(ctx.now))
        rec["message"] = {
            "id": "msg_01" + b62("trunc", ctx.key, str(ctx.n)),
            "type": "message",
            "role": "assistant",
            "model": ctx.model,
            "content": [{"type": "text", "text": "Let me check the remaining call sites before I"}],
        }
        full = json.dumps(rec, separators=(",", ":"))
        return full[: int(len(full) * 0.62)]
    if kind == "array":
        return json.dumps([{"type": "progress", "sessionId": ctx.session_id}, 1, 2])
    if kind == "bare_string":
        return json.dumps("[Request interrupted by user]")
    if kind == "plain_text":
        return "npm WARN deprecated inflight@1.0.6: This module is not supported"
    if kind == "null":
        return "null"
    if kind == "no_message":
        rec = ctx.base("user", iso(ctx.now))
        return json.dumps(rec, separators=(",", ":"))
    raise ValueError(kind)


def render_turns(ctx: Ctx, turns: list[tuple[Any, ...]]) -> None:
    first = True
    for turn in turns:
        kind = turn[0]
        if kind in ("u", "ub"):
            ts = iso(ctx.now) if first else ctx.tick(12, 140)
            rec = ctx.base("user", ts)
            if kind == "u":
                content: Any = turn[1]
            else:
                content = [
                    {"type": "text", "text": b} if isinstance(b, str) else b for b in turn[1]
                ]
            rec["message"] = {"role": "user", "content": content}
            ctx.write(rec)
        elif kind in ("a", "at"):
            ts = ctx.tick(2.5, 22)
            blocks: list[dict[str, Any]] = []
            tools = turn[2] if kind == "a" else turn[1]
            if kind == "at" and turn[2]:
                blocks.append(
                    {"type": "thinking", "thinking": turn[2], "signature": b62("sig", ts, n=40)}
                )
            if kind == "at" and turn[3]:
                blocks.append({"type": "text", "text": ""})
            if kind == "a":
                blocks.append({"type": "text", "text": turn[1]})
                ctx.last_text = turn[1]
            uses = []
            for i, tool in enumerate(tools):
                tid = "toolu_01" + b62("tool", ctx.key, ts, str(i))
                inp = absolutize(ctx, tool)
                blocks.append({"type": "tool_use", "id": tid, "name": tool["name"], "input": inp})
                uses.append((tid, tool, inp))
            rec = ctx.base("assistant", ts)
            rec["message"] = {
                "id": "msg_01" + b62("msg", ctx.key, ts),
                "type": "message",
                "role": "assistant",
                "model": ctx.model,
                "content": blocks,
                "stop_reason": "tool_use" if uses else "end_turn",
                "usage": {
                    "input_tokens": ctx.rng.randint(4, 60),
                    "cache_read_input_tokens": ctx.rng.randint(8000, 60000),
                    "output_tokens": ctx.rng.randint(40, 900),
                },
            }
            ctx.write(rec)
            ctx.last_assistant_uuid = rec["uuid"]
            for tid, tool, inp in uses:
                if tool["name"] == "Task":
                    result = run_agent(tool["agent"], ctx)
                    ts = ctx.tick(0.4, 1.5)
                else:
                    result = tool["result"]
                    if result is None:
                        result = default_result(tool["name"], inp)
                    lo, hi = (1.5, 35) if tool["name"] == "Bash" else (0.05, 1.2)
                    ts = ctx.tick(lo, hi)
                tr = ctx.base("user", ts)
                tr["message"] = {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": tid, "content": result}],
                }
                ctx.write(tr)
        elif kind == "meta":
            rec = ctx.base("user", ctx.tick(5, 40))
            rec["isMeta"] = True
            rec["message"] = {"role": "user", "content": turn[1]}
            ctx.write(rec)
        elif kind == "sys":
            rec = ctx.base("system", ctx.tick(0.5, 3))
            rec["subtype"] = turn[2]
            rec["content"] = turn[1]
            rec["level"] = "info"
            ctx.write(rec)
        elif kind == "bad":
            ctx.emit(bad_line(ctx, turn[1]))
        elif kind == "blank":
            ctx.emit("")
        elif kind == "split":
            ctx.split = True
        else:
            raise ValueError(kind)
        first = False


def rng_for(key: str) -> random.Random:
    return random.Random(zlib.crc32(key.encode()))


def write_lines(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        fh.write("".join(line + "\n" for line in lines))


CAPTURES: list[dict[str, Any]] = []  # {key, path, lines}
SUBAGENT_FILES: dict[str, Path] = {}  # agent key -> transcript path
FILE_HISTORY_KEYS = {"ws_rounding", "tp_pandas_upgrade", "ls_error_refactor"}


def capture_line(ts: datetime, sid: str, aid: str, transcript: str, message: str) -> str:
    rec = {
        "timestamp": iso(ts),
        "session_id": sid,
        "agent_id": aid,
        "agent_transcript_path": transcript,
        "last_assistant_message": message,
    }
    return json.dumps(rec, ensure_ascii=False, separators=(",", ":"))


def run_agent(key: str, spawner: Ctx | None) -> str:
    """Render one fork (transcript and/or capture); returns its final message."""
    spec = subst(AGENTS[key])
    aid = agent_id(key)
    proj = PROJECTS[spec["project"]]
    slug = slug_for(proj["cwd"])
    if spawner is not None:
        root, spawner_id, start = spawner.root_session, spawner.spawner_id, spawner.now
    else:  # orphan: the parent transcript is gone
        root = spawner_id = session_id(spec["parent_gone"])
        start = datetime.fromisoformat(spec["start"]).replace(tzinfo=UTC)
    transcript_path = f"{CONFIG_DIR}/projects/{slug}/{root}/subagents/agent-{aid}.jsonl"
    rng = rng_for(key)
    messages: list[str]
    if spec.get("turns"):
        assert spawner is not None
        ctx = Ctx(
            key=key,
            session_id=spawner.root_session,
            cwd=spawner.cwd,
            entrypoint=spawner.entrypoint,
            version=spawner.version,
            branch=spawner.branch,
            model=spec.get("model", DEFAULT_MODEL),
            sidechain=True,
            agent_id=aid,
            spawner_id=aid,
            root_session=spawner.root_session,
            slug=slug,
            rng=rng,
            now=start + timedelta(seconds=rng.uniform(0.6, 2.0)),
        )
        render_turns(ctx, spec["turns"])
        path = OUT / "projects" / slug / root / "subagents" / f"agent-{aid}.jsonl"
        write_lines(path, ctx.lines)
        SUBAGENT_FILES[key] = path
        messages = [ctx.last_text]
        end = ctx.now + timedelta(seconds=rng.uniform(0.3, 1.0))
        times = [end]
    else:
        messages = spec["capture_messages"]
        first = start + timedelta(seconds=rng.uniform(45, 190)) if spawner else start
        gaps = spec.get("capture_gaps", [0] * len(messages))
        times = [first + timedelta(seconds=g) for g in gaps]
        times = [t.replace(microsecond=rng.randint(0, 999) * 1000) for t in times]
        end = times[-1]
    if spec.get("capture"):
        lines = [
            capture_line(t, spawner_id, aid, transcript_path, m)
            for t, m in zip(times, messages, strict=True)
        ]
        path = OUT / "projects" / slug / "hypomnesis" / "subagent" / f"{aid}.jsonl"
        write_lines(path, lines)
        CAPTURES.append({"key": key, "path": path, "lines": len(lines)})
    if spawner is not None:
        spawner.now = end
    return messages[-1]


def render_session(key: str) -> None:
    spec = subst(SESSIONS[key])
    proj = PROJECTS[spec["project"]]
    sid = session_id(key)
    slug = slug_for(proj["cwd"])
    rng = rng_for(key)
    start = datetime.fromisoformat(spec["start"]).replace(tzinfo=UTC)
    start = start.replace(microsecond=rng.randint(0, 999) * 1000)
    ctx = Ctx(
        key=key,
        session_id=sid,
        cwd=spec.get("cwd", proj["cwd"]),
        entrypoint=spec.get("entrypoint", "cli"),
        version=spec["version"],
        branch=spec["branch"],
        model=spec.get("model", DEFAULT_MODEL),
        sidechain=False,
        agent_id=None,
        spawner_id=sid,
        root_session=sid,
        slug=slug,
        rng=rng,
        now=start,
    )
    render_turns(ctx, spec["turns"])
    head: list[str] = []
    for text in spec.get("summary", []):
        head.append(
            json.dumps(
                {"type": "summary", "summary": text, "leafUuid": ctx.last_assistant_uuid},
                ensure_ascii=False,
                separators=(",", ":"),
            )
        )
    if key in FILE_HISTORY_KEYS:
        head.append(
            json.dumps(
                {
                    "type": "file-history-snapshot",
                    "messageId": uuid4_for("snapshot", key),
                    "snapshot": {
                        "messageId": uuid4_for("snapshot", key),
                        "trackedFileBackups": {},
                        "timestamp": iso(start),
                    },
                    "isSnapshotUpdate": False,
                },
                separators=(",", ":"),
            )
        )
    path = OUT / "projects" / slug / f"{sid}.jsonl"
    write_lines(path, head + ctx.lines)
    if ctx.part2:
        write_lines(path.with_name(path.name + ".part2"), ctx.part2)


# --- reading back: the counting rules -------------------------------------------------------------


def text_of(content: Any) -> str | None:
    """Turn text under the README rules, or None if the content is not a turn."""
    if isinstance(content, str):
        return content if content.strip() else None
    if isinstance(content, list):
        texts = [
            b["text"]
            for b in content
            if isinstance(b, dict)
            and b.get("type") == "text"
            and isinstance(b.get("text"), str)
            and b["text"].strip()
        ]
        return "\n".join(texts) if texts else None
    return None


def analyze(lines: list[str]) -> dict[str, Any]:
    malformed = blank = 0
    records: list[dict[str, Any]] = []
    for line in lines:
        if not line.strip():
            blank += 1
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            malformed += 1
            continue
        if not isinstance(obj, dict):
            malformed += 1
            continue
        if obj.get("type") in ("user", "assistant") and not isinstance(obj.get("message"), dict):
            malformed += 1
            continue
        records.append(obj)
    turns: list[tuple[str, str, str]] = []
    for r in records:
        if r.get("type") == "user" and not r.get("isMeta"):
            text = text_of(r["message"].get("content"))
            if text is not None:
                turns.append(("user", text, r["timestamp"]))
        elif r.get("type") == "assistant":
            content = r["message"].get("content")
            text = text_of(content) if isinstance(content, list) else None
            if text is not None:
                turns.append(("assistant", text, r["timestamp"]))
    cwd = next((r["cwd"] for r in records if isinstance(r.get("cwd"), str)), None)
    entry = next((r["entrypoint"] for r in records if isinstance(r.get("entrypoint"), str)), None)
    first_ts = next((r["timestamp"] for r in records if "timestamp" in r), None)
    return {
        "records": records,
        "turns": turns,
        "malformed": malformed,
        "blank": blank,
        "cwd": cwd,
        "entrypoint": entry,
        "first_ts": first_ts,
    }


def read_lines(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def indexed_text(key: str) -> str:
    """What a recall index would see for a session or agent: turn texts, tool inputs, ids."""
    parts: list[str] = []
    paths: list[Path] = []
    if key in SESSIONS:
        sid = session_id(key)
        parts.append(sid)
        p = OUT / "projects" / slug_for(project_of(key)["cwd"]) / f"{sid}.jsonl"
        paths.append(p)
        if p.with_name(p.name + ".part2").exists():
            paths.append(p.with_name(p.name + ".part2"))
    else:
        parts.append(agent_id(key))
        if key in SUBAGENT_FILES:
            paths.append(SUBAGENT_FILES[key])
    for p in paths:
        a = analyze(read_lines(p))
        parts.extend(t[1] for t in a["turns"])
        for r in a["records"]:
            content = r.get("message", {}).get("content")
            if r.get("type") == "assistant" and isinstance(content, list):
                for b in content:
                    if isinstance(b, dict) and b.get("type") == "tool_use":
                        parts.append(json.dumps(b["input"], ensure_ascii=False))
    for cap in CAPTURES:
        if cap["key"] == key:
            parts.extend(
                json.loads(line)["last_assistant_message"] for line in read_lines(cap["path"])
            )
    return "\n".join(parts)


# Core literal kinds from the Anamnesis entropy track (lore part B.3).
LITERALS = {
    "url": re.compile(r"https?://[^\s)\"'`<>]+"),
    "fs_path": re.compile(r"\b[\w.-]+/[\w./-]+\.\w{1,6}\b"),
    "pr": re.compile(r"\bPR #\d{1,5}\b"),
    "issue": re.compile(r"(?<![\w&])#\d{1,5}\b"),
    "sha": re.compile(r"\b[0-9a-f]{7,40}\b"),
    "uuid": re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"),
}


def literals_in(text: str) -> list[str]:
    found: list[str] = []
    for rx in LITERALS.values():
        found.extend(m.group(0).rstrip(".,;:") for m in rx.finditer(text))
    return found


# --- main -----------------------------------------------------------------------------------------


def build() -> dict[str, Any]:
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    CAPTURES.clear()
    SUBAGENT_FILES.clear()
    for key in SESSIONS:
        render_session(key)
    for key, spec in AGENTS.items():
        if "parent_gone" in spec:
            run_agent(key, None)

    # agent -> (spawner id, root top-level session key)
    spawned_by: dict[str, str] = {}
    agent_type: dict[str, str] = {}
    for key, spec in [*SESSIONS.items(), *AGENTS.items()]:
        for t in spec.get("turns", []):
            if t[0] == "a":
                for tool in t[2]:
                    if tool["name"] == "Task":
                        spawned_by[tool["agent"]] = key
                        agent_type[tool["agent"]] = tool["input"]["subagent_type"]
    assert set(spawned_by) | {k for k, a in AGENTS.items() if "parent_gone" in a} == set(AGENTS)

    top_cwd: dict[str, str] = {}
    sessions_out: list[dict[str, Any]] = []
    growing: dict[str, Any] | None = None
    malformed_files = 0
    for key in SESSIONS:
        sid = session_id(key)
        slug = slug_for(project_of(key)["cwd"])
        path = OUT / "projects" / slug / f"{sid}.jsonl"
        a = analyze(read_lines(path))
        ut = sum(1 for t in a["turns"] if t[0] == "user")
        at = sum(1 for t in a["turns"] if t[0] == "assistant")
        assert 6 <= ut + at <= 24, (key, ut + at)
        assert a["first_ts"] == a["turns"][0][2], key  # first timestamped record is the first turn
        top_cwd[sid] = a["cwd"]
        malformed_files += bool(a["malformed"])
        sessions_out.append(
            {
                "id": sid,
                "key": key,
                "slug": slug,
                "path": path.relative_to(OUT).as_posix(),
                "cwd": a["cwd"],
                "kind": "top",
                "parent": None,
                "parent_exists": False,
                "user_turns": ut,
                "assistant_turns": at,
                "turns": ut + at,
                "first_user_text": next(t[1] for t in a["turns"] if t[0] == "user"),
                "started_at": a["turns"][0][2],
                "last_turn_at": a["turns"][-1][2],
                "valid_records": len(a["records"]),
                "malformed_lines": a["malformed"],
                "blank_lines": a["blank"],
                "entrypoint": a["entrypoint"],
                "git_branch": SESSIONS[key]["branch"],
            }
        )
        part2 = path.with_name(path.name + ".part2")
        if part2.exists():
            full = analyze(read_lines(path) + read_lines(part2))
            fu = sum(1 for t in full["turns"] if t[0] == "user")
            fa = sum(1 for t in full["turns"] if t[0] == "assistant")
            growing = {
                "id": sid,
                "path": path.relative_to(OUT).as_posix(),
                "part2": part2.relative_to(OUT).as_posix(),
                "part2_lines": len(read_lines(part2)),
                "turns_before": ut + at,
                "turns_after": fu + fa,
                "user_turns_before": ut,
                "assistant_turns_before": at,
                "user_turns_after": fu,
                "assistant_turns_after": fa,
                "last_turn_at_before": a["turns"][-1][2],
                "last_turn_at_after": full["turns"][-1][2],
            }

    known_ids = {session_id(k) for k in SESSIONS} | {agent_id(k) for k in AGENTS}
    agent_cwd: dict[str, str | None] = {}
    for key in AGENTS:  # transcripts first, so parent_cwd of a fork of a fork is known
        if key in SUBAGENT_FILES:
            agent_cwd[agent_id(key)] = analyze(read_lines(SUBAGENT_FILES[key]))["cwd"]

    def root_of(key: str) -> str | None:
        while key in AGENTS:
            if key not in spawned_by:
                return None
            key = spawned_by[key]
        return session_id(key)

    captures_by_key = {c["key"]: c for c in CAPTURES}
    for key, spec in AGENTS.items():
        aid = agent_id(key)
        slug = slug_for(project_of(key)["cwd"])
        cap = captures_by_key.get(key)
        cap_rel = cap["path"].relative_to(OUT).as_posix() if cap else None
        if key in spawned_by:
            parent_key = spawned_by[key]
            parent = session_id(parent_key) if parent_key in SESSIONS else agent_id(parent_key)
        else:
            parent = session_id(spec["parent_gone"])
        root = root_of(key)
        entry: dict[str, Any] = {"id": aid, "key": key, "slug": slug}
        if key in SUBAGENT_FILES:
            a = analyze(read_lines(SUBAGENT_FILES[key]))
            malformed_files += bool(a["malformed"])
            ut = sum(1 for t in a["turns"] if t[0] == "user")
            at = sum(1 for t in a["turns"] if t[0] == "assistant")
            assert {r["sessionId"] for r in a["records"] if "sessionId" in r} == {parent}
            entry.update(
                path=SUBAGENT_FILES[key].relative_to(OUT).as_posix(),
                cwd=a["cwd"],
                kind="subagent",
                user_turns=ut,
                assistant_turns=at,
                turns=ut + at,
                first_user_text=next(t[1] for t in a["turns"] if t[0] == "user"),
                started_at=a["turns"][0][2],
                last_turn_at=a["turns"][-1][2],
                valid_records=len(a["records"]),
                malformed_lines=a["malformed"],
                blank_lines=a["blank"],
                entrypoint=a["entrypoint"],
            )
        else:
            assert cap is not None
            caps = [json.loads(line) for line in read_lines(cap["path"])]
            entry.update(
                path=cap_rel,
                cwd=None,
                kind="capture_only",
                user_turns=0,
                assistant_turns=len(caps),
                turns=len(caps),
                first_user_text=None,
                started_at=caps[0]["timestamp"],
                last_turn_at=caps[-1]["timestamp"],
                valid_records=len(caps),
                malformed_lines=0,
                blank_lines=0,
                entrypoint=None,
            )
        entry.update(
            parent=parent,
            parent_exists=parent in known_ids,
            parent_top_level_exists=(OUT / "projects" / slug / f"{parent}.jsonl").exists(),
            parent_cwd=top_cwd.get(parent, agent_cwd.get(parent)),
            root_session=root,
            root_cwd=top_cwd.get(root) if root else None,
            has_capture=cap is not None,
            capture_path=cap_rel,
            subagent_type=agent_type.get(key, "general-purpose"),
        )
        sessions_out.append(entry)

    captures_out = []
    for cap in sorted(CAPTURES, key=lambda c: c["path"].as_posix()):
        first = json.loads(read_lines(cap["path"])[0])
        captures_out.append(
            {
                "path": cap["path"].relative_to(OUT).as_posix(),
                "agent_id": first["agent_id"],
                "session_id": first["session_id"],
                "lines": cap["lines"],
                "has_subagent_transcript": cap["key"] in SUBAGENT_FILES,
            }
        )

    manifest = {
        "description": "Facts about tests/data/agent_transcripts; see README.md for the rules.",
        "config_dir": CONFIG_DIR,
        "projects": [
            {"slug": slug_for(p["cwd"]), "cwd": p["cwd"], "key": p["key"]} for p in C.PROJECTS
        ],
        "sessions": sessions_out,
        "captures": captures_out,
        "growing": growing,
        "counts": {
            "projects": len(C.PROJECTS),
            "top_sessions": sum(1 for s in sessions_out if s["kind"] == "top"),
            "subagent_transcripts": sum(1 for s in sessions_out if s["kind"] == "subagent"),
            "capture_only_forks": sum(1 for s in sessions_out if s["kind"] == "capture_only"),
            "captured_agents": len(captures_out),
            "files_with_malformed_lines": malformed_files,
        },
    }
    return manifest


def build_questions(manifest: dict[str, Any]) -> list[dict[str, Any]]:
    by_key = {s["key"]: s for s in manifest["sessions"]}
    out = []
    for i, q in enumerate(C.QUESTIONS, 1):
        target = by_key[q["t"]] if q["t"] else None
        out.append(
            {
                "id": f"q{i:02d}",
                "question": subst(q["q"]),
                "target": target["id"] if target else None,
                "kind": q["k"],
                "note": subst(q["n"]),
                "target_kind": target["kind"] if target else None,
            }
        )
    return out


def check(manifest: dict[str, Any], questions: list[dict[str, Any]]) -> list[str]:
    """Assert the fixture's promises; returns notes on literal rarity for the summary."""
    counts = manifest["counts"]
    assert counts["projects"] >= 5
    assert counts["top_sessions"] >= 32
    assert counts["subagent_transcripts"] >= 3
    assert counts["captured_agents"] >= 4
    assert counts["files_with_malformed_lines"] >= 3
    forks = {s["id"]: s for s in manifest["sessions"] if s["kind"] != "top"}
    assert any(s["parent"] in forks for s in forks.values()), "fork of a fork"
    assert any(not s["parent_exists"] for s in forks.values()), "orphan fork"
    assert any(
        s["cwd"] != p["cwd"]
        for s in manifest["sessions"]
        if s["kind"] == "top"
        for p in manifest["projects"]
        if p["slug"] == s["slug"]
    ), "subfolder cwd"
    assert len(questions) >= 48
    assert sum(q["target"] is None for q in questions) == 3
    assert sum(q["target"] in forks for q in questions) >= 4
    keys = {s["id"]: s["key"] for s in manifest["sessions"]}
    all_keys = list(SESSIONS) + list(AGENTS)
    texts = {k: indexed_text(k) for k in all_keys}
    notes = []
    for q in questions:
        lits = literals_in(q["question"])
        if q["kind"] == "natural":
            assert not lits, (q["id"], lits)
            continue
        assert lits, q["id"]
        for lit in lits:
            assert lit in texts[keys[q["target"]]], (q["id"], lit)
            where = [k for k in all_keys if lit in texts[k]]
            notes.append(f"{q['id']} {lit!r}: in {len(where)} session(s) {where}")
    return notes


README = """\
# Coding-agent transcript fixture

Generated by `tests/data/make_agent_transcripts.py` from the hand-written conversations in
`tests/data/agent_transcripts_content.py`. Do not edit files here by hand: change the content and
rerun `python tests/data/make_agent_transcripts.py` (deterministic; rewrites this folder and
`tests/data/recall_questions.jsonl` byte for byte).

This folder is a Claude Code config dir (`CLAUDE_CONFIG_DIR`), as it would sit at `{config_dir}`:
{n_projects} projects, {n_top} top-level sessions (Jan-Nov 2026), {n_sub} sub-agent transcripts,
{n_capt} agents captured by the Hypomnesis SubagentStop hook ({n_conly} of them capture-only).
There is no `hypomnesis/<session-id>/` INDEX_semantic and no `memory/`: a recall over this
fixture is the degraded scan (SSOT + literal match on the INDEX_substitute captures).

## Layout

```
projects/<slug>/<session-id>.jsonl                               top-level session (SSOT)
projects/<slug>/<session-id>.jsonl.part2                         lines to append (growing file)
projects/<slug>/<parent-session-id>/subagents/agent-<agentId>.jsonl   sub-agent (fork) transcript
projects/<slug>/hypomnesis/subagent/<agentId>.jsonl              SubagentStop captures
manifest.json                                                    facts tests assert
```

- `<slug>` is the project cwd with `/` replaced by `-` (`/home/kai/src/webshop` ->
  `-home-kai-src-webshop`). Only top-level `*.jsonl` files directly in a slug folder are sessions;
  the session id is the file name. Files deeper down are fork transcripts or captures, never
  top-level sessions.
- cwd comes from the records (first record that has a `cwd`), not from the slug: some sessions run
  in a subfolder (`/home/kai/src/webshop/frontend`, `/home/kai/src/tidepool/dags`,
  `/home/kai/work/infra-live/modules/storage`, `/home/kai/dotfiles/nvim`). cwd never changes inside
  a file.
- Session ids are UUID4 strings; agent ids are 8 hex characters. A fork's own id is its agentId.
- Sub-agent transcript records have `isSidechain: true`, `agentId`, and `sessionId` = the
  top-level session they run under. The first user record is the prompt the parent sent.
- Capture lines: `{{timestamp, session_id, agent_id, agent_transcript_path,
  last_assistant_message}}`. `session_id` is the orchestrating parent (a session id, or an agent
  id for a fork of a fork). `agent_transcript_path` is an absolute-looking path under
  `{config_dir}`; it is informational and does not always exist in the fixture.
- File mtimes are not meaningful (git does not keep them); use record timestamps.

## Record types you will meet

| line | turn? |
|---|---|
| `type:"user"`, content a non-empty string or a list with a non-empty `text` block | user turn |
| `type:"user"` whose content is only `tool_result` blocks (or only an image) | no |
| `type:"user"` with `isMeta: true` (command caveats) | no |
| `type:"assistant"` with at least one non-empty `text` block | assistant turn |
| `type:"assistant"` with only `tool_use` / `thinking` blocks, or an empty `text` block | no |
| `type:"summary"` (`summary`, `leafUuid`; no timestamp, cwd or sessionId; at file start) | no |
| `type:"system"` (`subtype`, `content`; e.g. compact_boundary) | no |
| `type:"file-history-snapshot"` (no top-level timestamp or cwd; at file start) | no |
| malformed line (below) | no, skip and count |
| blank line | no, skip and count separately |

Assistant tool inputs (`Read`/`Edit`/`Write` `file_path`, `Grep` `path`, `Bash` `command`,
`WebFetch` `url`, `Task` `prompt`) carry paths and URLs worth indexing; file paths are absolute.
`Task` tool_use blocks in a transcript are where its forks were started; the matching
`tool_result` holds the fork's final message.

## Counting rules (the manifest uses exactly these)

- Lines are the file split on `\\n`; the newline that ends the file does not start another line.
- **blank line**: a line that is empty or only whitespace. Counted in `blank_lines`, never in
  `malformed_lines`.
- **malformed line**: a non-blank line that is not valid JSON (e.g. truncated), is valid JSON but
  not an object (a bare string, `null`, an array), or is an object with `type` `user` or
  `assistant` but no `message` object. Counted in `malformed_lines` per file and skipped. All
  other JSON objects are valid records (unknown types are not turns).
- **user turn**: a valid `type:"user"` record without `isMeta: true` whose `message.content` is a
  string with non-whitespace text, or a list with at least one `text` block with non-whitespace
  text (text = those blocks joined with `\\n`).
- **assistant turn**: a valid `type:"assistant"` record whose `message.content` list has at least
  one `text` block with non-whitespace text (text = those blocks joined with `\\n`).
- Nothing else is a turn. `turns` = `user_turns + assistant_turns`.
- `first_user_text`: text of the first user turn. `started_at` / `last_turn_at`: timestamps of
  the first / last turn (in every top-level file the first timestamped record is the first turn).
- `entrypoint`: of the first record that has one (`cli`, `vscode`, `sdk-ts`).
- Capture-only forks (no sub-agent transcript): each capture line is one assistant turn
  (`last_assistant_message`), `user_turns` 0, `first_user_text`/`cwd`/`entrypoint` null,
  `started_at`/`last_turn_at` from the first/last capture line.

Malformed lines live in {malformed_files} files (see `malformed_lines` / `blank_lines` in the
manifest): truncated JSON, a plain-text (non-JSON) line, a bare JSON string, `null`, a JSON
array, user records without `message`, and blank lines. parentUuid chains skip over them.

## Forks

- Sub-agent transcript + capture: `a_nplus1` (webshop), `a_bench` (logslice), `a_shortcodes` (blog).
- Sub-agent transcript only (typed `Explore` agent, not captured): `a_chained` (tidepool).
- Capture only, parent exists: `a_money_floats` (webshop).
- Fork of a fork, capture only: `a_sigbus`; its capture `session_id` is `a_bench`'s agentId, and
  `a_bench` is a fork of a top-level logslice session (`root_session` in the manifest). There is
  no top-level `<a_bench>.jsonl`, so `parent_top_level_exists` is false.
- Orphan, capture only (2 lines): `a_tag_audit` (infra); its capture `session_id` is a UUID with
  no transcript anywhere (`parent_exists` false, `root_session` null): non-resumable.

Manifest fork fields: `parent` (capture `session_id`, or the transcript `sessionId`),
`parent_exists` (a transcript with that id exists: top-level or sub-agent),
`parent_top_level_exists` (`<slug>/<parent>.jsonl` exists), `parent_cwd` (cwd of that parent
transcript, or null), `root_session` / `root_cwd` (the top-level session reached by following
parents, or null), `has_capture`, `capture_path`, `subagent_type`. `key` is the content key.

## Growing file

`growing.path` has a sibling `growing.part2`: appending the part2 bytes to the file simulates a
session that kept going. The manifest session entry describes the file before the append;
`growing` gives the turn counts and last turn time before and after.

## Recall questions

`tests/data/recall_questions.jsonl`: `{{id, question, target, kind, note, target_kind}}`. target is
a session id, an agentId (forks) or null (never discussed; no confident match must be claimed).
kind: `natural` (no literal identifiers), `identifier` (contains a URL, path, `PR #N`, `#N`, hex
sha, UUID or agentId), `mixed` (both). The generator checks that every literal in an identifier
or mixed question occurs in its target's turn text or tool inputs, and that natural questions
contain none. Some sessions are deliberately alike (three CI sessions, three Postgres sessions,
two migrations, the logslice speed-up and the blog post about it).
"""


def main() -> int:
    manifest = build()
    questions = build_questions(manifest)
    notes = check(manifest, questions)
    (OUT / "manifest.json").write_text(
        json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    c = manifest["counts"]
    (OUT / "README.md").write_text(
        README.format(
            config_dir=CONFIG_DIR,
            n_projects=c["projects"],
            n_top=c["top_sessions"],
            n_sub=c["subagent_transcripts"],
            n_capt=c["captured_agents"],
            n_conly=c["capture_only_forks"],
            malformed_files=c["files_with_malformed_lines"],
        ),
        encoding="utf-8",
    )
    write_lines(QUESTIONS_PATH, [json.dumps(q, ensure_ascii=False) for q in questions])
    if "-v" in sys.argv:
        print("\n".join(notes))
    kinds = {k: sum(q["kind"] == k for q in questions) for k in ("natural", "identifier", "mixed")}
    print(f"wrote {OUT.relative_to(HERE.parent.parent)}: {c}; questions {len(questions)} {kinds}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
