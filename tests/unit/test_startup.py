"""Start-up stays light: the command line's entry point loads no model, no spaCy, no driver.

``recollect-graph --help``, ``--version`` and every tab-completion press import the entry point;
torch, spaCy, sentence-transformers and the Neo4j driver are loaded only by the commands that
use them.
"""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("torch", "spacy", "sentence_transformers", "transformers", "neo4j", "numpy", "networkx")


def _loaded_after(code: str) -> list[str]:
    probe = (
        f"{code}\nimport sys, json\nprint(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    return list(json.loads(out.stdout.strip().splitlines()[-1]))


def test_importing_the_cli_entry_point_loads_nothing_heavy() -> None:
    assert _loaded_after("import recollect_graph.cli.main") == []


def test_help_and_version_load_nothing_heavy() -> None:
    code = (
        "from click.testing import CliRunner\n"
        "from recollect_graph.cli.main import cli\n"
        "r = CliRunner()\n"
        "assert r.invoke(cli, ['--help']).exit_code == 0\n"
        "assert r.invoke(cli, ['--version']).exit_code == 0\n"
        "for group in ('docs', 'entities', 'sessions', 'memory', 'learn', 'neo4j', 'topics'):\n"
        "    assert r.invoke(cli, [group, '--help']).exit_code == 0, group\n"
        "assert r.invoke(cli, ['search', '--help']).exit_code == 0\n"
    )
    assert _loaded_after(code) == []


def test_importing_the_package_loads_nothing_heavy() -> None:
    assert _loaded_after("import recollect_graph, recollect_graph.settings") == []


def test_the_mcp_server_answers_tools_list_from_light_imports() -> None:
    """initialize and tools/list need only the SDK and the models: the facade comes later."""
    code = (
        "import anyio\n"
        "from recollect_graph.mcp.server import MemoryTools, build_server\n"
        "from recollect_graph.settings import Settings\n"
        "server = build_server(MemoryTools(Settings(default_scope='app')))\n"
        "assert len(anyio.run(server.list_tools)) > 20\n"
    )
    assert _loaded_after(code) == []


def test_the_search_path_loads_no_model_and_no_spacy() -> None:
    """A search needs the driver and the ONNX embedder, not spaCy (nor torch through thinc)."""
    loaded = _loaded_after("import recollect_graph.services.search.hybrid")
    assert not {"torch", "spacy", "sentence_transformers", "transformers"} & set(loaded)


def test_the_stop_words_are_spacys_own() -> None:
    from spacy.lang.en.stop_words import STOP_WORDS

    from recollect_graph.nlp.stopwords import _parse, english_stop_words

    assert english_stop_words() == frozenset(STOP_WORDS)
    assert {"what", "the", "n't", "\u2019s"} <= english_stop_words()
    assert _parse("X = 1\n") is None  # a file of another layout: the caller imports spaCy
