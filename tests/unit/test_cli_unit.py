import json
import re

import click
import pytest
from click.testing import CliRunner

from recollect_graph.cli.main import _parse_param, cli
from recollect_graph.errors import InvalidInput


def test_config_json_masks_the_password() -> None:
    result = CliRunner().invoke(
        cli,
        ["config", "--json"],
        env={"NEO4J_URI": "bolt://127.0.0.1:1", "NEO4J_PASSWORD": "pw-secret-1"},
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["neo4j_password"] == "****"
    assert data["mode"] == "external"
    assert "pw-secret-1" not in result.output


def test_bad_setting_is_one_line() -> None:
    result = CliRunner().invoke(cli, ["config"], env={"RECOLLECT_BOLT_PORT": "abc"})
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "RECOLLECT_BOLT_PORT" in result.output


def test_param_values_are_json_when_they_can_be() -> None:
    assert _parse_param("n=5") == ("n", 5)
    assert _parse_param('tags=["a","b"]') == ("tags", ["a", "b"])
    assert _parse_param("name=alice") == ("name", "alice")
    assert _parse_param("q=a=b") == ("q", "a=b")
    with pytest.raises(InvalidInput):
        _parse_param("novalue")
    with pytest.raises(InvalidInput):
        _parse_param("bad-name=1")


def test_unreachable_external_server_is_a_clear_error() -> None:
    result = CliRunner().invoke(
        cli,
        ["cypher", "RETURN 1", "--json"],
        env={"NEO4J_URI": "bolt://127.0.0.1:1", "NEO4J_PASSWORD": "x" * 8},
    )
    assert result.exit_code == 1
    assert "not reachable" in result.output
    assert "Traceback" not in result.output


def _walk(cmd: click.Command, path: tuple[str, ...] = ()) -> list[tuple[str, click.Command]]:
    out = [(" ".join(path) or "recollect-graph", cmd)]
    if isinstance(cmd, click.Group):
        for name, sub in sorted(cmd.commands.items()):
            out += _walk(sub, (*path, name))
    return out


def test_every_command_has_help_with_an_example() -> None:
    """Walks the whole click tree: a command added later without an example fails here."""
    runner = CliRunner()
    missing = []
    for name, cmd in _walk(cli):
        args = name.split() if name != "recollect-graph" else []
        result = runner.invoke(cli, [*args, "--help"])
        assert result.exit_code == 0, (name, result.output)
        text = result.output
        parts = re.split(r"\bExamples?:", text, maxsplit=1)
        example = parts[1] if len(parts) == 2 else ""
        if "recollect-graph" not in example.split("Options:")[0]:
            missing.append(name)
        if any(p.name == "as_json" for p in cmd.params):
            assert "--json" in text, name
    assert missing == [], f"commands whose --help has no 'Example:' with a command line: {missing}"


def test_no_command_module_shadows_another_command() -> None:
    """click's add_command silently replaces a same-named command: names must be unique."""
    import importlib

    names: list[str] = []
    for mod in ("backup_cmd", "contradiction_cmd", "data_cmd", "docs_cmd", "knowledge_cmd",
                "context_cmd"):  # fmt: skip
        m = importlib.import_module(f"recollect_graph.cli.{mod}")
        names += [c.name for c in m.COMMANDS if c.name]
    from recollect_graph.cli.main import cli

    assert len(names) == len(set(names)), sorted(names)
    assert set(names) <= set(cli.commands)
    assert "restore" in cli.commands and "restore-backup" in cli.commands
