"""Strip outputs, execution counts and run metadata from the notebooks (``make notebooks``).

Usage: ``python notebooks/strip.py [--check] [NOTEBOOK...]`` (default: every ``*.ipynb`` beside
this file). ``--check`` changes nothing and exits 1 when a notebook still has outputs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import nbformat

HERE = Path(__file__).resolve().parent
#: Cell metadata a run adds (nbclient timings, Jupyter's collapsed/scrolled state).
RUN_METADATA = ("execution", "collapsed", "scrolled", "ExecuteTime")


def dirty_cells(nb: Any) -> list[int]:
    """Indices of the code cells that carry outputs, an execution count or run metadata."""
    return [
        i
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "code"
        and (
            cell.get("outputs")
            or cell.get("execution_count") is not None
            or any(k in cell.get("metadata", {}) for k in RUN_METADATA)
        )
    ]


def strip(nb: Any) -> bool:
    """Remove outputs, execution counts and run metadata in place; True when anything changed."""
    changed = bool(dirty_cells(nb))
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        cell["outputs"] = []
        cell["execution_count"] = None
        for key in RUN_METADATA:
            cell.get("metadata", {}).pop(key, None)
    for key in ("widgets", "papermill"):
        if key in nb.metadata:
            del nb.metadata[key]
            changed = True
    return changed


def main(argv: list[str] | None = None) -> int:
    """Strip (or, with ``--check``, list) the notebooks; the exit code is 1 when a check fails."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; fail if dirty")
    parser.add_argument("paths", nargs="*", type=Path)
    args = parser.parse_args(argv)
    paths = args.paths or sorted(HERE.glob("*.ipynb"))
    dirty = []
    for path in paths:
        nb = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
        if args.check:
            if dirty_cells(nb):
                dirty.append(path)
        elif strip(nb):
            nbformat.write(nb, path)  # type: ignore[no-untyped-call]
            print(f"stripped {path}")
    for path in dirty:
        print(f"{path}: has outputs (run `make notebooks`)", file=sys.stderr)
    return 1 if dirty else 0


if __name__ == "__main__":
    sys.exit(main())
