"""Every notebook in ``notebooks/`` runs top to bottom against the test session's Neo4j.

Each notebook is copied out of the package the way a user gets it (``recollect-graph notebooks
--to DIR``) into the test's tmp dir, outside the checkout, and executed there (cwd and the
notebook's path both there, so nothing can be read from the checkout) with nbclient in a fresh
kernel (the venv's Python). The kernel
inherits this process's environment, so the ``cli_env`` fixture's ``RECOLLECT_*`` variables point
``Recollect.open()`` inside the notebook at the test server; each notebook makes its own scope.
A notebook prints ``NAME value`` lines for the numbers that show it did its job, and the test
checks them. The executed copies are written under the test's tmp dir for inspection.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import nbformat
import pytest
from click.testing import CliRunner
from nbclient import NotebookClient

from notebooks.strip import dirty_cells
from recollect_graph.cli.main import cli
from recollect_graph.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
#: For each notebook, the printed numbers it must produce and the least each may be.
EXPECTED: dict[str, dict[str, float]] = {
    "01_api_tour": {"ENTRIES_STORED": 20, "CONFLICTS_FOUND": 1, "SUGGESTIONS": 1},
    "02_graph_analytics": {
        "COMMUNITIES": 2,
        "CONTRADICTION_CLUSTERS": 5,
        "RETIRED": 1,
        "TOPICS": 2,
    },
    "03_sessions_recall": {"SESSIONS_INGESTED": 10, "FORK_TREES": 2, "PROBES": 3},
    "04_retrieval_eval": {"RECALL_AT_10": 0.5},
}
#: Time for one notebook, kernel start included.
TIMEOUT_S = 600


def test_every_notebook_has_expectations() -> None:
    assert {p.stem for p in NOTEBOOKS} == set(EXPECTED)


def test_committed_notebooks_have_no_outputs() -> None:
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
        assert dirty_cells(nb) == [], f"{path.name} has outputs: run `make notebooks`"


def printed(nb: nbformat.NotebookNode) -> str:
    """Everything the notebook's cells wrote to stdout."""
    return "".join(
        out.get("text", "")
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if out.get("output_type") == "stream" and out.get("name") == "stdout"
    )


def test_the_notebooks_command_copies_them_out(tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["notebooks", "--to", str(tmp_path / "nb"), "--json"])
    assert out.exit_code == 0, out.output
    assert sorted(json.loads(out.stdout)["notebooks"]) == [p.name for p in NOTEBOOKS]
    again = CliRunner().invoke(cli, ["notebooks", "--to", str(tmp_path / "nb"), "--json"])
    assert again.exit_code == 1 and json.loads(again.stdout)["error"] == "invalid_input"
    assert "--force" in json.loads(again.stdout)["message"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(
    path: Path, cli_env: Settings, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("RECOLLECT_SCOPE", raising=False)  # each notebook makes its own scope
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    # copied out of the package, run from outside the checkout
    where = tmp_path / "notebooks"
    result = CliRunner().invoke(cli, ["notebooks", "--to", str(where)])
    assert result.exit_code == 0, result.output
    assert ROOT not in where.resolve().parents
    monkeypatch.chdir(where)
    copy = where / path.name
    nb = nbformat.read(copy, as_version=4)  # type: ignore[no-untyped-call]
    client = NotebookClient(
        nb,
        timeout=TIMEOUT_S,
        kernel_name="python3",
        resources={"metadata": {"path": str(where)}},
    )
    t0 = time.perf_counter()
    try:
        client.execute()
    finally:
        nbformat.write(nb, tmp_path / path.name)  # type: ignore[no-untyped-call]
    secs = time.perf_counter() - t0
    print(f"{path.name}: executed in {secs:.1f} s -> {tmp_path / path.name}")
    dataframes = [
        out
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if "dataframe" in out.get("data", {}).get("text/html", "")
    ]
    assert dataframes, f"{path.name} showed no DataFrame"

    text = printed(nb)
    for name, least in EXPECTED[path.stem].items():
        m = re.search(rf"^{name} (\S+)", text, re.MULTILINE)
        assert m, f"{path.name} printed no {name}"
        assert float(m.group(1)) >= least, f"{path.name}: {name} = {m.group(1)} < {least}"
    images = [
        out
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if "image/png" in out.get("data", {})
    ]
    if path.stem != "01_api_tour":
        assert images, f"{path.name} drew no plot"
