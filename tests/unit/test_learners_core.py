"""The learner behaviour's records, the write plan, and the registry of built-ins and plugins."""

from __future__ import annotations

import textwrap
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from recollect_graph.errors import InvalidInput
from recollect_graph.ids import entry_id
from recollect_graph.learners import Event, Extract, Learner, Pattern, parse_since, registry
from recollect_graph.learners import plan as planning
from recollect_graph.learners.base import LearnerPluginError
from recollect_graph.redaction import marker

T = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)


def test_extract_validates_what_remember_would_refuse() -> None:
    Extract(content="x", source_id="1", entry_type="problem", valence="negative")
    with pytest.raises(InvalidInput, match="entry_type must be one of"):
        Extract(content="x", source_id="1", entry_type="development_insight")
    with pytest.raises(InvalidInput, match="content"):
        Extract(content="  ", source_id="1")
    with pytest.raises(InvalidInput, match="valence"):
        Extract(content="x", source_id="1", valence="happy")
    with pytest.raises(InvalidInput, match="JSON"):
        Extract(content="x", source_id="1", metadata={(1, 2): "tuple key"})
    with pytest.raises(InvalidInput, match="tags"):
        Extract(content="x", source_id="1", tags="git")


def test_parse_since() -> None:
    now = datetime(2024, 3, 10, tzinfo=UTC)
    assert parse_since("7 days ago", now=now) == now - timedelta(days=7)
    assert parse_since("2w", now=now) == now - timedelta(days=14)
    assert parse_since("3 hours", now=now) == now - timedelta(hours=3)
    assert parse_since("2024-03-01") == datetime(2024, 3, 1, tzinfo=UTC)
    assert parse_since(datetime(2024, 3, 1)) == datetime(2024, 3, 1, tzinfo=UTC)
    assert parse_since(None) is None
    with pytest.raises(InvalidInput, match="not an ISO date"):
        parse_since("last tuesday")


def _ev(i: int) -> Event:
    return Event(key=f"e{i}", at=T + timedelta(minutes=i), data={"subject": f"commit {i}"})


def test_plan_orders_events_puts_patterns_after_their_last_event_and_cuts_batches() -> None:
    events = [_ev(i) for i in range(6)]
    extracts = {e.key: Extract(content=f"commit {e.key}", source_id=e.key) for e in events}
    extracts["e4"] = Extract(
        content="token ghp_abcdefghijklmnopqrstuvwxyz0123456789", source_id="e4"
    )
    mig = Pattern("migration", [events[1], events[3]], "Migration from webpack to vite",
                  old="webpack", new="vite")  # fmt: skip
    flaky = Pattern("flaky", [events[5]], "Flaky test: t", key="t")
    summary = Extract(content="summary", source_id="area:x", entry_type="note")
    items, dupes = planning.build("git", "scope", events, extracts, [mig, flaky], [summary])
    kinds = [(it.kind, it.source_id) for it in items]
    assert kinds == [
        ("event", "git:e0"), ("event", "git:e1"), ("event", "git:e2"), ("event", "git:e3"),
        ("pattern", "git:migration:webpack->vite"), ("event", "git:e4"), ("event", "git:e5"),
        ("pattern", "git:pattern:flaky:t"), ("summary", "git:area:x"),
    ]  # fmt: skip
    assert dupes == 0
    anchor = items[4]
    assert anchor.cut_before and anchor.migration is mig and anchor.extract.pinned
    assert anchor.extract.entry_type == "decision" and anchor.source_type == "inferred"
    assert anchor.exclude_ids == [items[1].entry_id, items[3].entry_id]
    assert anchor.at == events[3].at
    assert items[5].extract.content == f"token {marker('github_token')}"  # redacted in the plan
    assert items[0].entry_id == entry_id("scope", content_sha="", source_id="git:e0", force=False)
    batches = planning.batches(items, 3)
    assert [[it.source_id for it in b] for b in batches] == [
        ["git:e0", "git:e1", "git:e2"], ["git:e3"],
        ["git:migration:webpack->vite", "git:e4", "git:e5"],
        ["git:pattern:flaky:t", "git:area:x"],
    ]  # fmt: skip


def test_plan_revisions_supersedes_and_duplicates() -> None:
    events = [_ev(0), _ev(1), _ev(2)]
    extracts = {
        "e0": Extract(content="v2 of the note", source_id="a.md#x", revision="abc"),
        "e1": Extract(content="revert", source_id="sha2", supersedes=["sha1"]),
        "e2": Extract(content="again", source_id="sha2"),
    }
    items, dupes = planning.build("notes", "s", events, extracts, [], [])
    assert dupes == 1 and len(items) == 2
    assert items[0].source_id == "notes:a.md#x@abc" and items[0].revision_prefix == "notes:a.md#x@"
    sha1 = entry_id("s", content_sha="", source_id="notes:sha1", force=False)
    assert items[1].supersede_ids == [sha1]
    row = items[0].remember_item("notes")
    assert row["metadata"]["learned_from"] == "notes" and row["source_type"] == "observed"


class _Todo:
    """A tiny learner for the tests."""

    def source(self) -> str:
        return "todo"

    def fetch_since(self, since: datetime | None, scope_id: str) -> list[Event]:
        return [Event("1", None, {"text": "ship it"})]

    def extract(self, event: Event) -> Extract:
        return Extract(content=str(event.data["text"]), source_id=event.key)


def test_learner_protocol_and_check() -> None:
    assert isinstance(_Todo(), Learner)
    assert registry.check_learner(_Todo()).source() == "todo"

    class Bad:
        def source(self) -> str:
            return "Not A Name"

        def fetch_since(self, since: object, scope_id: str) -> list[Event]:
            return []

        def extract(self, event: Event) -> Extract:
            raise NotImplementedError

    with pytest.raises(LearnerPluginError, match="lower-case name"):
        registry.check_learner(Bad())
    with pytest.raises(LearnerPluginError, match="does not implement fetch_since, extract"):
        registry.check_learner(object.__new__(type("Half", (), {"source": lambda self: "x"})))


def test_builtins_are_listed_and_made_by_name(tmp_path: Path) -> None:
    names = [i.name for i in registry.available() if i.origin == "built-in"]
    assert names == ["git", "shell", "ci", "notes"]
    notes = registry.create("notes", folder=str(tmp_path))
    assert notes.source() == "notes"
    with pytest.raises(LearnerPluginError, match="no learner called 'jira'"):
        registry.create("jira")


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An installed distribution (dist-info on sys.path) declaring three learners."""
    pkg = tmp_path / "rg_plugin_demo"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent('''
        from recollect_graph.learners import Event, Extract

        NOT_A_LEARNER = 42

        class TodoLearner:
            """TODO comments of a folder."""

            def __init__(self, folder: str = ".") -> None:
                self.folder = folder

            def source(self) -> str:
                return "todo"

            def fetch_since(self, since, scope_id):
                return [Event("t1", None, {"text": "TODO: retry payments"})]

            def extract(self, event):
                return Extract(content=event.data["text"], source_id=event.key)
    '''))  # fmt: skip
    info = tmp_path / "rg_plugin_demo-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: rg-plugin-demo\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[recollect_graph.learners]\n"
        "todo = rg_plugin_demo:TodoLearner\n"
        "broken = rg_plugin_missing_module:Nope\n"
        "number = rg_plugin_demo:NOT_A_LEARNER\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_plugins_load_through_the_entry_point_group(plugins: Path) -> None:
    learner = registry.create("todo", folder="src")
    assert learner.source() == "todo"
    assert "todo" in registry.names()
    infos = {i.name: i for i in registry.available()}
    assert infos["todo"].ok and infos["todo"].distribution == "rg-plugin-demo"
    assert infos["todo"].description == "TODO comments of a folder."
    assert not infos["broken"].ok and "ModuleNotFoundError" in infos["broken"].description


def test_a_broken_plugin_is_named_in_a_clear_error(plugins: Path) -> None:
    with pytest.raises(LearnerPluginError) as e:
        registry.create("broken")
    msg = str(e.value)
    assert "learner plugin 'broken'" in msg and "rg_plugin_missing_module:Nope" in msg
    assert "rg-plugin-demo" in msg and "failed to load" in msg
    with pytest.raises(LearnerPluginError, match=r"'number'.*not a class or callable"):
        registry.create("number")


def _cli(*args: str):  # type: ignore[no-untyped-def]
    from click.testing import CliRunner

    from recollect_graph.cli.main import cli

    return CliRunner().invoke(cli, list(args))


def test_cli_learn_list_and_bad_input_fail_before_the_database(tmp_path: Path) -> None:
    import json

    from tests.helpers import assert_one_line_error

    listed = _cli("learn", "list", "--json")
    assert listed.exit_code == 0
    assert [i["name"] for i in json.loads(listed.stdout)][:4] == ["git", "shell", "ci", "notes"]
    r = _cli("learn", "run", "--source", "jira", "--scope", "s", "--owner", "k")
    assert_one_line_error(r, "no learner called 'jira'")
    r = _cli("learn", "ci", str(tmp_path / "nope"), "--scope", "s", "--owner", "k")
    assert_one_line_error(r, "does not exist")
    r = _cli("learn", "notes", str(tmp_path), "--since", "last tuesday", "--scope", "s",
             "--owner", "k")  # fmt: skip
    assert_one_line_error(r, "is not an ISO date/time")
    r = _cli("learn", "run", "--source", "notes", "--option", "nokey", "--scope", "s")
    assert_one_line_error(r, "expected KEY=VALUE")
