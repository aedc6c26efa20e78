"""Sample data that ships with the package, so the notebooks run from an installed package.

* ``project/docs/``: the Markdown docs of a small fictional webshop (billing, search, frontend,
  operations); :func:`make_git_repo` turns them into a git repository with a commit history;
* ``transcripts/``: Claude Code transcripts of two of its projects (a copy of two of the six
  projects of ``tests/data/agent_transcripts``), forks of forks included;
* ``contradiction_pairs.jsonl``: labelled statement pairs (a copy of ``tests/data``'s);
* ``locomo_tiny.json``: a LoCoMo-format conversation with questions (a copy of ``tests/data``'s).

``tests/unit/test_samples.py`` fails when a copy drifts from its original in ``tests/data``.

Example:
    >>> from recollect_graph import samples
    >>> samples.path("locomo_tiny.json").name
    'locomo_tiny.json'
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

#: Where the sample files are.
ROOT = Path(__file__).resolve().parent


def path(name: str) -> Path:
    """The sample file or folder ``name`` (e.g. ``"transcripts"``).

    Raises:
        FileNotFoundError: There is no such sample; the message lists those there are.
    """
    p = (ROOT / name).resolve()
    if ROOT not in p.parents or not p.exists():
        have = sorted(x.name for x in ROOT.iterdir() if not x.name.startswith(("_", ".")))
        raise FileNotFoundError(
            f"no sample {name!r} in {ROOT} (there are: {', '.join(have)}); "
            "reinstall recollect-graph if the package is incomplete"
        )
    return p


def notebooks_dir() -> Path:
    """The folder of the notebooks: inside the installed wheel, or ``notebooks/`` of a checkout.

    Raises:
        FileNotFoundError: Neither holds any notebook.
    """
    for folder in (ROOT.parent / "notebooks", ROOT.parents[1] / "notebooks"):
        if any(folder.glob("*.ipynb")):
            return folder
    raise FileNotFoundError(
        "the notebooks are missing from this installation; reinstall recollect-graph"
    )


def copy_notebooks(dest: Path, *, overwrite: bool = False) -> list[Path]:
    """Copy every notebook into ``dest`` (made if missing); returns the copies.

    They need nothing else from a checkout: their data comes from this package.

    Raises:
        FileExistsError: A notebook of that name is already in ``dest`` and ``overwrite`` is
            false (nothing is copied then).
    """
    dest = Path(dest)
    sources = sorted(notebooks_dir().glob("*.ipynb"))
    clash = [p.name for p in sources if (dest / p.name).exists()]
    if clash and not overwrite:
        raise FileExistsError(
            f"{dest} already has {', '.join(clash)}: pass overwrite (--force) to replace them"
        )
    dest.mkdir(parents=True, exist_ok=True)
    out = []
    for src in sources:
        tmp = dest / f".{src.name}.tmp"
        shutil.copyfile(src, tmp)
        tmp.replace(dest / src.name)  # each copy appears whole or not at all
        out.append(dest / src.name)
    return out


def make_git_repo(dest: Path) -> Path:
    """Write the sample project into ``dest`` as a git repository with its commit history.

    Each commit of ``git_history.json`` adds or changes its files at its date (a doc is written
    whole from ``project/``, any other file gets a line naming the commit), so the history is the
    same on every machine. An existing repository at ``dest`` is returned as it is.

    Raises:
        FileNotFoundError: ``git`` is not installed.
    """
    git = shutil.which("git")
    if git is None:
        raise FileNotFoundError("the sample git history needs git: install git")
    dest = Path(dest)
    if (dest / ".git").is_dir():
        return dest
    dest.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Kai",
        "GIT_AUTHOR_EMAIL": "kai@example.org",
        "GIT_COMMITTER_NAME": "Kai",
        "GIT_COMMITTER_EMAIL": "kai@example.org",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_SYSTEM": os.devnull,
    }

    def run(*args: str, **extra: str) -> None:
        subprocess.run(
            [git, *args], cwd=dest, env={**env, **extra}, check=True, capture_output=True
        )

    run("init", "-q", "-b", "main")
    for n, commit in enumerate(json.loads((ROOT / "git_history.json").read_text())):
        for rel in commit["files"]:
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            source = ROOT / "project" / rel
            if source.is_file():
                target.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
            else:
                with target.open("a", encoding="utf-8") as f:
                    f.write(f"# {n}: {commit['message'].splitlines()[0]}\n")
        run("add", "-A")
        when = commit["date"]
        run("commit", "-q", "-m", commit["message"], GIT_AUTHOR_DATE=when, GIT_COMMITTER_DATE=when)
    return dest
