"""The sample data and notebooks ship with the package; the guide server for Docker/Aura Browsers."""

from __future__ import annotations

import filecmp
import json
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect_graph import samples
from recollect_graph.analysis.guide_server import GuideServer
from recollect_graph.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


@pytest.mark.parametrize("name", ["contradiction_pairs.jsonl", "locomo_tiny.json"])
def test_sample_files_are_copies_of_the_test_data(name: str) -> None:
    assert filecmp.cmp(samples.path(name), DATA / name, shallow=False), f"copy tests/data/{name}"


def test_sample_transcripts_are_copies_of_two_test_projects() -> None:
    ours = samples.path("transcripts/projects")
    for project in ours.iterdir():
        cmp = filecmp.dircmp(project, DATA / "agent_transcripts" / "projects" / project.name)
        assert not (cmp.left_only or cmp.diff_files), f"copy {project.name} again"
    assert len(list(ours.iterdir())) == 2


def test_a_missing_sample_is_a_clear_error() -> None:
    with pytest.raises(FileNotFoundError, match=r"there are: .*locomo_tiny\.json"):
        samples.path("nope.json")
    with pytest.raises(FileNotFoundError):
        samples.path("../facade.py")


def test_the_sample_git_history_is_the_same_everywhere(tmp_path: Path) -> None:
    repo = samples.make_git_repo(tmp_path / "repo")
    log = subprocess.run(
        ["git", "log", "--format=%aI %s"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    history = json.loads((samples.ROOT / "git_history.json").read_text())
    assert len(log) == len(history)
    assert log[-1].startswith("2026-03-02T09:14:00") and "docs(billing)" in log[-1]
    assert (repo / "docs" / "billing.md").read_text() == (
        samples.path("project/docs/billing.md").read_text()
    )
    assert samples.make_git_repo(repo) == repo  # an existing repository is kept


def test_notebooks_copy_out_and_refuse_to_overwrite(tmp_path: Path) -> None:
    first = CliRunner().invoke(cli, ["notebooks", "--to", str(tmp_path)])
    assert first.exit_code == 0, first.output
    names = sorted(p.name for p in tmp_path.glob("*.ipynb"))
    assert names == sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    (tmp_path / names[0]).write_text("mine")
    again = CliRunner().invoke(cli, ["notebooks", "--to", str(tmp_path)])
    assert again.exit_code == 1 and "--force" in again.output
    assert (tmp_path / names[0]).read_text() == "mine"  # nothing changed
    forced = CliRunner().invoke(cli, ["notebooks", "--to", str(tmp_path), "--force"])
    assert forced.exit_code == 0 and (tmp_path / names[0]).read_text() != "mine"


def test_no_notebook_reads_the_checkout() -> None:
    for nb in (ROOT / "notebooks").glob("*.ipynb"):
        text = nb.read_text()
        for needle in ("pyproject.toml", "tests/data", "Path.cwd().parents", "ROOT /", "sys.path"):
            assert needle not in text, f"{nb.name} reads {needle} from the checkout"


def test_guide_server_serves_guide_and_style_with_its_base() -> None:
    server = GuideServer(port=0).start()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/guides/recollect.html") as r:
            page = r.read().decode()
            assert r.headers["Access-Control-Allow-Origin"] == "*"
        assert f":style {server.base}/guides/style.grass" in page and "{{BASE}}" not in page
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/guides/style.grass") as r:
            assert "node.Decision" in r.read().decode()
        pre = urllib.request.Request(
            f"http://127.0.0.1:{server.port}/guides/recollect.html", method="OPTIONS"
        )
        with urllib.request.urlopen(pre) as r:
            assert r.status == 204 and r.headers["Access-Control-Allow-Headers"] == "*"
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(f"http://127.0.0.1:{server.port}/guides/../settings.py")
        assert e.value.code == 404
        assert (
            server.play_command() == f":play http://localhost:{server.port}/guides/recollect.html"
        )
    finally:
        server.stop()


def test_guide_server_binds_loopback_only() -> None:
    with pytest.raises(ValueError, match="loopback"):
        GuideServer(host="0.0.0.0")


def test_guide_writes_the_saved_queries_as_browser_favourites(tmp_path: Path) -> None:
    import zipfile

    out = CliRunner().invoke(cli, ["guide", "--favourites", str(tmp_path / "f.zip"), "--json"])
    assert out.exit_code == 0, out.output
    with zipfile.ZipFile(tmp_path / "f.zip") as z:
        names = sorted(Path(n).name for n in z.namelist())
        story = z.read("recollect-graph/story.cypher").decode()
    saved = sorted(p.name for p in (ROOT / "cypher" / "browser").glob("*.cypher"))
    assert names == saved == sorted(json.loads(out.output)["queries"])
    assert story.startswith("// recollect-graph: story\n") and "REFERENCES" in story
