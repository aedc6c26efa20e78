"""The CI learner: JUnit XML reports (pytest, Maven Surefire, Gradle, Jest's junit reporter...).

Each report file is one run (its time: the suite's ``timestamp``, else the file's mtime). For
each test the learner follows its results run by run, starting from what the scope already knows
(the latest failure or resolution this learner stored before ``since``):

- passing -> failing (or error): a ``problem`` entry with the test id, message and the first
  lines of the trace (``source_id`` = the test case id, one revision per failure episode);
- failing again: skipped ("still failing"), it is the same problem;
- failing -> passing: an ``outcome`` entry (positive) that supersedes the failure it resolves;
- results that keep alternating (three or more changes), or Surefire's ``flakyFailure`` /
  ``rerunFailure``: a ``flaky`` pattern, stored once per test.

An unreadable report becomes an error in the result (the other reports are still learned).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from recollect_graph.learners.base import Event, Extract, LearnerError, Pattern, Skip, stream_id

TRACE_LINES = 12
FLAKY_CHANGES = 3


@dataclass(frozen=True)
class Result:
    """One test's result in one run."""

    test_id: str
    status: str  # pass | fail | error | skip
    message: str
    kind: str
    trace: str
    suite: str
    flaky_reruns: int


def safe_key(text: str) -> str:
    """A test id usable in a source id (``@`` separates revisions)."""
    return text.replace("@", "%40")


def parse_report(path: Path) -> tuple[datetime | None, list[Result]]:
    """A JUnit XML file's run time (if it says) and its test results.

    Raises:
        LearnerError: Not XML, or not a JUnit report.
    """
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as e:
        raise LearnerError(f"ci: {path} is not a readable JUnit XML report: {e}") from e
    if root.tag not in ("testsuites", "testsuite"):
        raise LearnerError(f"ci: {path} is not a JUnit report (root element <{root.tag}>)")
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    when = next((s.get("timestamp") for s in suites if s.get("timestamp")), None)
    at = None
    if when:
        try:
            at = datetime.fromisoformat(when.replace("Z", "+00:00"))
            at = at if at.tzinfo else at.replace(tzinfo=UTC)
        except ValueError:
            at = None
    results: list[Result] = []
    for suite in suites:
        sname = suite.get("name") or ""
        for case in suite.findall("testcase"):
            results.append(_result(case, sname))
    return at, results


def _result(case: ET.Element, suite: str) -> Result:
    cls = case.get("classname") or suite or case.get("file") or ""
    name = case.get("name") or "?"
    test_id = f"{cls}::{name}" if cls else name
    reruns = len(case.findall("flakyFailure")) + len(case.findall("flakyError"))
    reruns += len(case.findall("rerunFailure")) + len(case.findall("rerunError"))
    for tag, status in (("failure", "fail"), ("error", "error")):
        el = case.find(tag)
        if el is not None:
            text = (el.text or "").strip()
            msg = (el.get("message") or text.splitlines()[0] if text else el.get("message")) or ""
            trace = "\n".join(text.splitlines()[:TRACE_LINES])
            return Result(
                test_id, status, msg.strip()[:500], el.get("type") or tag, trace, suite, reruns
            )
    status = "skip" if case.find("skipped") is not None else "pass"
    return Result(test_id, status, "", "", "", suite, reruns)


class CiLearner:
    """Test results from JUnit XML reports: failures, their resolutions and flaky tests.

    Args:
        paths: Report files, or folders searched recursively for ``*.xml``.

    Raises:
        LearnerError: A path does not exist.
    """

    def __init__(self, paths: Sequence[str | Path] | str | Path) -> None:
        given = [paths] if isinstance(paths, str | Path) else list(paths)
        if not given:
            raise LearnerError("ci: give at least one report file or folder")
        self.paths = [Path(p).expanduser() for p in given]
        for p in self.paths:
            if not p.exists():
                raise LearnerError(f"ci: {p} does not exist")
        self._prior: dict[str, list[str]] = {}

    def source(self) -> str:
        """``ci``."""
        return "ci"

    def stream(self) -> str:
        """The report locations read."""
        return stream_id("\n".join(sorted(str(p.resolve()) for p in self.paths)))

    def use_state(self, rows: Sequence[Mapping[str, Any]]) -> None:
        """What the scope knew before ``since``: this learner's entries, oldest first.

        Each row has ``source_id`` (``<test id>@<run>``) and ``entry_type`` (``problem`` for a
        failure, ``outcome`` for a resolution).
        """
        prior: dict[str, list[str]] = defaultdict(list)
        for r in rows:
            test = str(r["source_id"]).rsplit("@", 1)[0]
            if r.get("entry_type") in ("problem", "outcome"):
                prior[test].append("fail" if r["entry_type"] == "problem" else "pass")
        self._prior = dict(prior)

    def _files(self) -> list[tuple[Path, Path]]:
        out = []
        for p in self.paths:
            if p.is_dir():
                out += [(f, f.relative_to(p)) for f in sorted(p.rglob("*.xml")) if f.is_file()]
            else:
                out.append((p, Path(p.name)))
        return out

    def fetch_since(self, since: datetime | None, scope_id: str) -> list[Event]:
        """Failures, still-failing results and resolutions of the runs at or after ``since``."""
        runs: list[tuple[datetime, str, list[Result]]] = []
        broken: list[Event] = []
        for f, rel in self._files():
            try:
                at, results = parse_report(f)
            except LearnerError as e:
                broken.append(Event(key=f"unreadable:{rel}", at=None, data={"error": str(e)}))
                continue
            at = at or datetime.fromtimestamp(f.stat().st_mtime, UTC)
            if since is not None and at < since:
                continue
            run_id = f"{at.strftime('%Y%m%dT%H%M%S')}-{stream_id(str(rel))[:6]}"
            runs.append((at, run_id, results))
        runs.sort(key=lambda r: (r[0], r[1]))
        state = {t: h[-1] for t, h in self._prior.items() if h}
        changes = {t: len(h) for t, h in self._prior.items()}
        failing_since: dict[str, dict[str, Any]] = {}
        events: list[Event] = []
        for at, run_id, results in runs:
            for r in results:
                if r.status == "skip":
                    continue
                failed = r.status in ("fail", "error")
                before = state.get(r.test_id)
                now = "fail" if failed else "pass"
                if (before is not None and before != now) or (before is None and failed):
                    changes[r.test_id] = changes.get(r.test_id, 0) + 1
                state[r.test_id] = now
                data = {
                    "test_id": r.test_id,
                    "run_id": run_id,
                    "run_at": at.isoformat(),
                    "suite": r.suite,
                    "message": r.message,
                    "failure_type": r.kind,
                    "trace": r.trace,
                    "changes": changes.get(r.test_id, 0),
                    "flaky_reruns": r.flaky_reruns,
                }
                key = f"{safe_key(r.test_id)}@{run_id}"
                if failed and before == "fail":
                    events.append(Event(f"{key}:still", at, {**data, "kind": "still_failing"}))
                elif failed:
                    failing_since[r.test_id] = data
                    events.append(Event(key, at, {**data, "kind": r.status}))
                elif before == "fail":
                    first = failing_since.pop(r.test_id, None)
                    events.append(Event(key, at, {**data, "kind": "resolution", "resolves": first}))
                elif r.flaky_reruns:
                    events.append(Event(key, at, {**data, "kind": "flaky_pass"}))
        return broken + events

    def extract(self, event: Event) -> Extract | Skip:
        """A failure as a problem, a resolution as a positive outcome."""
        d = event.data
        if "error" in d:
            raise LearnerError(str(d["error"]))
        kind = d["kind"]
        if kind == "still_failing":
            return Skip("still failing (recorded when it started)")
        if kind == "flaky_pass":
            return Skip("passed after reruns (see the flaky pattern)")
        test, run_at = str(d["test_id"]), str(d["run_at"])[:19].replace("T", " ")
        meta = {"test_id": test, "run_id": d["run_id"], "run_at": d["run_at"], "suite": d["suite"]}
        if kind == "resolution":
            first = d.get("resolves") or {}
            was = f" It had failed since {str(first.get('run_at', ''))[:10]}" if first else ""
            why = f": {first.get('message')}" if first.get("message") else ""
            return Extract(
                content=f"Test fixed: {test} passes again (run {run_at}).{was}{why}",
                source_id=safe_key(test),
                revision=str(d["run_id"]),
                entry_type="outcome",
                valence="positive",
                tags=["ci", "test", "resolution"],
                metadata={**meta, "success": True, "resolves_run": first.get("run_id")},
                half_life_days=14.0,
                valid_from=datetime.fromisoformat(str(d["run_at"])),
            )
        label = "error" if kind == "error" else "failure"
        head = f"{d['failure_type']}: {d['message']}" if d["message"] else str(d["failure_type"])
        trace = f"\n\n{d['trace']}" if d["trace"] and d["trace"] != d["message"] else ""
        return Extract(
            content=f"Test {label}: {test}\n{head}{trace}\n\n(run {run_at})",
            source_id=safe_key(test),
            revision=str(d["run_id"]),
            entry_type="problem",
            valence="negative",
            tags=["ci", "test", label],
            metadata={
                **meta,
                "message": d["message"],
                "failure_type": d["failure_type"],
                "error": True,
            },
            summary=f"{test} fails: {d['message']}"[:300] if d["message"] else None,
            half_life_days=30.0,
            valid_from=datetime.fromisoformat(str(d["run_at"])),
        )

    def detect_patterns(self, events: Sequence[Event]) -> list[Pattern]:
        """Flaky tests: results that keep changing, or passes only after reruns."""
        by_test: dict[str, list[Event]] = defaultdict(list)
        for e in events:
            if "test_id" in e.data:
                by_test[str(e.data["test_id"])].append(e)
        out = []
        for test, evs in sorted(by_test.items()):
            changes = max(int(e.data["changes"]) for e in evs)
            reruns = sum(int(e.data["flaky_reruns"]) for e in evs)
            if changes < FLAKY_CHANGES and not reruns:
                continue
            why = (
                f"its result changed {changes} times"
                if changes >= FLAKY_CHANGES
                else f"it passed only after {reruns} rerun(s)"
            )
            last_msg = next(
                (str(e.data["message"]) for e in reversed(evs) if e.data["message"]), ""
            )
            out.append(
                Pattern(
                    type="flaky",
                    events=evs,
                    summary=f"Flaky test: {test} ({why})",
                    key=safe_key(test),
                    details=f"Last failure: {last_msg}" if last_msg else None,
                )
            )
        return out
