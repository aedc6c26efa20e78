"""The layering: every module imports only its own layer or the layers below it.

``cli/`` and ``mcp/`` -> the facade -> ``services/`` and ``learners/`` -> ``db/`` and ``nlp/``
-> the leaves (settings, models, results, errors, ids, vocabulary, tables, redaction). ``mcp/`` never imports
``cli/``. Read from the source with :mod:`ast`, so nothing is imported to check it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "recollect_graph"

#: Layer of each top-level part of the package; a module may import its layer and lower ones.
LAYERS: dict[str, int] = {
    "settings": 0,
    "models": 0,
    "errors": 0,
    "ids": 0,
    "vocabulary": 0,
    "results": 0,
    "redaction": 0,
    "tables": 0,
    "captions": 0,
    "analysis": 2,
    "samples": 0,
    "config_file": 0,
    "db": 1,
    "nlp": 1,
    "services": 2,
    "learners": 2,
    "ogm": 2,
    "facade": 3,
    "aio": 3,  # AsyncRecollect, beside the facade it uses
    "integrations": 4,  # LangChain / LlamaIndex adapters over the facade
    "__init__": 3,  # the package itself re-exports the facade
    "cli": 4,
    "mcp": 4,
    "__main__": 5,
}
#: Imports refused although both parts sit in one layer: (importing part, imported part).
FORBIDDEN = {("mcp", "cli")}


def _part(module: str) -> str:
    """The top-level part of a dotted module name inside the package (``__init__`` for itself)."""
    rest = module.split(".")[1:]
    return rest[0] if rest else "__init__"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def _imports(source: str, module: str, *, is_pkg: bool) -> list[tuple[int, str]]:
    """``(line, module)`` of every import of the package in ``source`` (relative ones resolved)."""
    here = module.split(".")
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            name = node.module or ""
            if node.level:
                base = here if is_pkg else here[:-1]
                base = base[: len(base) - (node.level - 1)]
                name = ".".join([*base, name] if name else base)
            if name == "recollect_graph":  # from recollect_graph import facade, __version__
                out += [(node.lineno, f"{name}.{a.name}") for a in node.names]
            else:
                out.append((node.lineno, name))
    return [(n, m) for n, m in out if m.split(".")[0] == "recollect_graph"]


def _violations(source: str, module: str, *, is_pkg: bool = False) -> list[str]:
    src = _part(module)
    bad = []
    for line, imported in _imports(source, module, is_pkg=is_pkg):
        dst = _part(imported)
        if dst not in LAYERS and imported.count(".") == 1:
            continue  # a name from the package root (``__version__``), not a module
        if dst not in LAYERS:
            bad.append(f"{module}:{line} imports {imported}: {dst} has no layer")
        elif LAYERS[dst] > LAYERS[src] or (src, dst) in FORBIDDEN:
            bad.append(
                f"{module}:{line} ({src}, layer {LAYERS[src]}) imports {imported} "
                f"({dst}, layer {LAYERS[dst]})"
            )
    return bad


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_part_of_the_package_has_a_layer() -> None:
    parts = {_part(_module_name(p)) for p in MODULES}
    assert parts <= set(LAYERS), parts - set(LAYERS)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_imports_upward(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert _violations(source, _module_name(path), is_pkg=path.name == "__init__.py") == []


@pytest.mark.parametrize(
    ("source", "module", "is_pkg"),
    [
        ("from recollect_graph.facade import Recollect", "recollect_graph.services.x.y", False),
        ("from ...facade import Recollect", "recollect_graph.services.x.y", False),
        ("from recollect_graph.cli.output import table", "recollect_graph.mcp", True),
        ("import recollect_graph.cli.main", "recollect_graph.mcp.server", False),
        ("from recollect_graph import services", "recollect_graph.db.client", False),
        ("from recollect_graph.mcp.server import serve", "recollect_graph.facade", False),
    ],
)
def test_the_check_sees_an_upward_import(source: str, module: str, is_pkg: bool) -> None:
    assert _violations(source, module, is_pkg=is_pkg)


def test_the_check_lets_downward_and_same_layer_imports_be() -> None:
    ok = (
        "from recollect_graph import __version__\n"
        "from recollect_graph.facade import Recollect\n"
        "from recollect_graph.mcp.server import serve\n"
        "from .output import table\n"
    )
    assert _violations(ok, "recollect_graph.cli.mcp_cmd") == []
