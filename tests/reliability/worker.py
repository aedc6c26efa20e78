"""A client process for the reliability tests: ``python -m tests.reliability.worker JSON``.

It opens the library the way a user does (settings from the environment, the embedded server
attached) and runs one job:

- ``{"job": "remember", "scope": ..., "n": 40, "batch": 8, "progress": PATH}``: ``remember_many``
  of ``n`` numbered items, appending each acknowledged count to ``PATH`` (flushed and fsynced),
  so a parent that kills this process knows what was acknowledged;
- ``{"job": "mixed", "scope": ..., "worker": 3, "ops": 1000, "out": PATH, ...}``: the concurrency
  mix of :func:`tests.reliability.ops.run_ops`, writing its tally as JSON to ``PATH``;
- ``{"job": "consolidate", "scope": ..., "progress": PATH}``: ``consolidate --apply`` that, half
  way through its write transaction (the first merge's members retired, nothing committed),
  writes ``in-tx`` to ``PATH`` and waits there to be killed.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

from recollect_graph import Recollect, Settings


def remember_items(n: int) -> list[dict[str, Any]]:
    """The items of the ``remember`` job (the parent re-runs the same list)."""
    return [
        {
            "content": f"Batch item {i}: service {i} keeps its queue in Postgres",
            "source_id": f"item-{i}",
            "tags": ["crash-test"],
        }
        for i in range(n)
    ]


def _remember(rg: Recollect, job: dict[str, Any]) -> None:
    path = job["progress"]

    def progress(done: int, total: int) -> None:
        with open(path, "a") as f:
            f.write(f"{done}\n")
            f.flush()
            os.fsync(f.fileno())

    rg.remember_many(
        remember_items(int(job["n"])),
        scope_id=job["scope"],
        owner_id="worker",
        progress=progress,
        batch_size=int(job["batch"]),
    )


def _consolidate(rg: Recollect, job: dict[str, Any]) -> None:
    from tests.reliability.support import stop_inside_tx

    def wait_to_be_killed() -> None:
        with open(job["progress"], "a") as f:
            f.write("in-tx\n")
            f.flush()
            os.fsync(f.fileno())
        time.sleep(600)

    with stop_inside_tx(rg, "supersede/retire", wait_to_be_killed):
        rg.consolidate(job["scope"], dry_run=False)


def main(argv: list[str]) -> int:
    job = json.loads(argv[1])
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    with Recollect.open(Settings.from_env()) as rg:
        if job["job"] == "remember":
            _remember(rg, job)
        elif job["job"] == "consolidate":
            _consolidate(rg, job)
        elif job["job"] == "mixed":
            from tests.reliability.ops import run_ops

            tally = run_ops(rg, job)
            with open(job["out"], "w") as f:
                json.dump(tally, f)
        else:
            raise SystemExit(f"unknown job {job['job']!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
