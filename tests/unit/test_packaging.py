"""The wheel carries the cypher/ files, the launcher sources and py.typed."""

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_wheel_ships_cypher_files_and_launcher(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--wheel",
            "--no-isolation",
            "--outdir",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    wheel = next(tmp_path.glob("recollect_graph-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {
        f"recollect_graph/cypher/{p.relative_to(ROOT / 'cypher').as_posix()}"
        for p in (ROOT / "cypher").rglob("*.cypher")
    }
    assert expected and expected <= names, sorted(expected - names)
    assert "recollect_graph/py.typed" in names
    # test-only code stays out of the wheel
    assert not [n for n in names if "/testing/" in n or n.endswith("nlp/evaluate.py")]
    assert not [n for n in names if n.startswith("tests/")]
    assert "recollect_graph/db/launcher/pom.xml" in names
    assert (
        "recollect_graph/db/launcher/src/main/java/org/recollectgraph/launcher/Launcher.java"
        in names
    )
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert (
        "recollect-graph = recollect_graph.cli.main:main"
        in zipfile.ZipFile(wheel).read(entry_points).decode()
    )
    # the notebooks and the data they load ship too, so they run from an installed package
    notebooks = {
        f"recollect_graph/notebooks/{p.name}" for p in (ROOT / "notebooks").glob("*.ipynb")
    }
    assert notebooks and notebooks <= names, sorted(notebooks - names)
    samples = ROOT / "recollect_graph" / "samples"
    shipped = {
        f"recollect_graph/samples/{p.relative_to(samples).as_posix()}"
        for p in samples.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert len(shipped) > 10 and shipped <= names, sorted(shipped - names)
    assert "recollect_graph/db/launcher/src/main/resources/guides/style.grass" in names
