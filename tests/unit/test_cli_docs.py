"""The CLI reference in docs/cli.md matches the click commands (regenerated in memory)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _gen() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_cli", DOCS / "gen_cli.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cli_reference_is_current() -> None:
    expected = _gen().render()
    current = (DOCS / "cli.md").read_text(encoding="utf-8")
    assert current == expected, "docs/cli.md is out of date: run python docs/gen_cli.py"


def test_cli_reference_lists_every_command() -> None:
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    for name in ("export", "import", "stats", "show", "init", "recall", "memory capture"):
        assert f"## recollect-graph {name}\n" in text
