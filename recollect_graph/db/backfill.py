"""Backfills that ``init`` runs after the migrations: data older than a property it now needs.

Entries written before captions existed get their ``caption`` (title, else the first line of
content, as plain text: :func:`recollect_graph.captions.caption`) and their entry type as a
second label (:data:`recollect_graph.vocabulary.ENTRY_TYPE_LABELS`). Each batch is one write
transaction; a re-run finds nothing left to do.
"""

from __future__ import annotations

import logging

from recollect_graph.captions import caption
from recollect_graph.db.client import Db
from recollect_graph.vocabulary import ENTRY_TYPE_LABELS

log = logging.getLogger(__name__)

#: Entries per backfill transaction.
BATCH = 2000


def backfill_captions(db: Db, *, batch: int = BATCH) -> int:
    """Give every entry without a caption its caption and entry-type label; returns how many."""
    done = 0
    while True:
        rows = db.read("admin/uncaptioned_entries", limit=batch)
        if not rows:
            break
        db.write(
            "admin/set_captions",
            rows=[
                {
                    "id": r["id"],
                    "caption": caption(r["content"], r["title"]),
                    "type_label": ENTRY_TYPE_LABELS.get(str(r["entry_type"] or "")),
                }
                for r in rows
            ],
        )
        done += len(rows)
    if done:
        log.info("backfilled captions and entry-type labels of %d entries", done)
    return done
