"""The CI learner on JUnit reports from several runs (pytest and Maven Surefire shapes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from recollect_graph.learners import Extract, Skip
from recollect_graph.learners.base import LearnerError
from recollect_graph.learners.ci import CiLearner, parse_report

TRACE = "\n".join(
    ["def test_total():", ">       assert total([1, 2]) == 4", "E       assert 3 == 4"]
    + [f"    frame {i}" for i in range(30)]
)


def pytest_report(stamp: str, results: dict[str, str]) -> str:
    """A pytest --junitxml report; results: test name -> pass|fail|error|skip."""
    cases = []
    for name, status in results.items():
        body = {
            "fail": f'<failure message="assert 3 == 4">{TRACE}</failure>',
            "error": '<error message="fixture db not found">E  fixture db not found</error>',
            "skip": '<skipped message="needs docker"/>',
            "pass": "",
        }[status]
        cases.append(
            f'<testcase classname="tests.test_cart" name="{name}" time="0.01">{body}</testcase>'
        )
    return (
        '<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" '
        f'failures="0" skipped="0" tests="{len(cases)}" time="0.5" timestamp="{stamp}" '
        f'hostname="ci">{"".join(cases)}</testsuite></testsuites>'
    )


def surefire_report(stamp: str, fails: bool, flaky: bool = False) -> str:
    case = '<testcase name="chargesCard" classname="com.shop.PaymentTest" time="0.2">'
    if fails:
        case += '<failure message="expected 200 but was 502" type="java.lang.AssertionError">at com.shop.PaymentTest.chargesCard(PaymentTest.java:42)</failure>'
    if flaky:
        case += '<flakyFailure message="timeout" type="java.net.SocketTimeoutException"/>'
    case += "</testcase>"
    return (
        f'<?xml version="1.0"?><testsuite name="com.shop.PaymentTest" tests="1" '
        f'timestamp="{stamp}">{case}</testsuite>'
    )


@pytest.fixture
def reports(tmp_path: Path) -> Path:
    d = tmp_path / "reports"
    (d / "run1").mkdir(parents=True)
    (d / "run2").mkdir(parents=True)
    (d / "run1" / "junit.xml").write_text(pytest_report("2024-03-01T10:00:00.123456", {
        "test_total": "fail", "test_empty": "pass", "test_db": "error", "test_docker": "skip",
    }))  # fmt: skip
    (d / "run2" / "junit.xml").write_text(pytest_report("2024-03-02T10:00:00", {
        "test_total": "pass", "test_empty": "pass", "test_db": "error", "test_docker": "skip",
    }))  # fmt: skip
    (d / "run1" / "TEST-com.shop.PaymentTest.xml").write_text(
        surefire_report("2024-03-01T10:05:00", fails=True)
    )
    (d / "run2" / "TEST-com.shop.PaymentTest.xml").write_text(
        surefire_report("2024-03-02T10:05:00", fails=False)
    )
    return d


def test_reports_parse_in_both_shapes(reports: Path) -> None:
    at, results = parse_report(reports / "run1" / "junit.xml")
    assert at is not None and at.isoformat().startswith("2024-03-01T10:00:00")
    by_id = {r.test_id: r for r in results}
    assert by_id["tests.test_cart::test_total"].status == "fail"
    assert by_id["tests.test_cart::test_total"].message == "assert 3 == 4"
    assert by_id["tests.test_cart::test_db"].status == "error"
    assert by_id["tests.test_cart::test_docker"].status == "skip"
    _, sure = parse_report(reports / "run1" / "TEST-com.shop.PaymentTest.xml")
    assert sure[0].test_id == "com.shop.PaymentTest::chargesCard"
    assert sure[0].kind == "java.lang.AssertionError"


def test_failures_become_problems_and_later_passes_resolve_them(reports: Path) -> None:
    learner = CiLearner([reports])
    events = learner.fetch_since(None, "s")
    out = [(e.data.get("kind"), e.data.get("test_id"), learner.extract(e)) for e in events]
    kinds = [(k, t) for k, t, _ in out]
    assert kinds == [
        ("fail", "tests.test_cart::test_total"),
        ("error", "tests.test_cart::test_db"),
        ("fail", "com.shop.PaymentTest::chargesCard"),
        ("resolution", "tests.test_cart::test_total"),
        ("still_failing", "tests.test_cart::test_db"),
        ("resolution", "com.shop.PaymentTest::chargesCard"),
    ]
    fail = out[0][2]
    assert isinstance(fail, Extract) and fail.entry_type == "problem" and fail.valence == "negative"
    assert fail.source_id == "tests.test_cart::test_total" and fail.revision
    assert "assert 3 == 4" in fail.content and "def test_total():" in fail.content
    assert "frame 20" not in fail.content  # only the first lines of the trace
    assert fail.metadata["test_id"] == "tests.test_cart::test_total"
    fixed = out[3][2]
    assert isinstance(fixed, Extract) and fixed.entry_type == "outcome"
    assert fixed.valence == "positive" and fixed.source_id == fail.source_id
    assert fixed.revision != fail.revision  # a new revision supersedes the failure
    assert "It had failed since 2024-03-01" in fixed.content
    assert out[4][2] == Skip("still failing (recorded when it started)")
    assert learner.detect_patterns(events) == []


def test_state_from_the_scope_carries_a_failure_across_overwritten_reports(
    tmp_path: Path,
) -> None:
    f = tmp_path / "junit.xml"
    f.write_text(pytest_report("2024-03-02T10:00:00", {"test_total": "pass"}))
    learner = CiLearner([f])
    learner.use_state([{"source_id": "tests.test_cart::test_total@x", "entry_type": "problem"}])
    events = learner.fetch_since(None, "s")
    assert [e.data["kind"] for e in events] == ["resolution"]
    learner.use_state([])
    assert learner.fetch_since(None, "s") == []  # passing tests are not events


def test_flaky_tests_are_a_pattern(tmp_path: Path) -> None:
    for i, status in enumerate(["fail", "pass", "fail", "pass"]):
        (tmp_path / f"run{i}.xml").write_text(
            pytest_report(f"2024-03-0{i + 1}T10:00:00", {"test_total": status})
        )
    (tmp_path / "sure.xml").write_text(surefire_report("2024-03-05T10:00:00", False, flaky=True))
    learner = CiLearner([tmp_path])
    events = learner.fetch_since(None, "s")
    patterns = {p.key: p for p in learner.detect_patterns(events)}
    assert set(patterns) == {"tests.test_cart::test_total", "com.shop.PaymentTest::chargesCard"}
    total = patterns["tests.test_cart::test_total"]
    assert total.type == "flaky" and "changed 4 times" in total.summary
    assert "rerun" in patterns["com.shop.PaymentTest::chargesCard"].summary


def test_a_broken_report_is_an_error_not_a_stop(tmp_path: Path) -> None:
    (tmp_path / "bad.xml").write_text("<testsuite><testcase")
    (tmp_path / "other.xml").write_text("<project/>")
    (tmp_path / "ok.xml").write_text(pytest_report("2024-03-01T10:00:00", {"test_total": "fail"}))
    learner = CiLearner([tmp_path])
    events = learner.fetch_since(None, "s")
    broken = [e for e in events if e.key.startswith("unreadable:")]
    assert len(broken) == 2
    with pytest.raises(LearnerError, match="not a readable JUnit XML report"):
        learner.extract(next(e for e in broken if "bad.xml" in e.key))
    assert any(e.data.get("kind") == "fail" for e in events)


def test_missing_path_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(LearnerError, match="does not exist"):
        CiLearner([tmp_path / "nope"])
