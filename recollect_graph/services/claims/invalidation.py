"""Invalidation: weaken what mentions a deprecated concept, and read migrations from git.

``rg.invalidate("Jenkins", reason=..., replacement="CI runs on GitHub Actions")`` weakens every
current entry of the scope that mentions the phrase (confidence and half-life scaled down) and,
with a replacement, writes it and lets it supersede them. ``invalidate_from_git`` finds
"migrate X to Y", "replace X with Y", ... in recent commit subjects. Each is one undoable
operation. Mixed into :class:`~recollect_graph.services.claims.contradictions.Contradictions`.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from recollect_graph.db.client import Db, Tx
from recollect_graph.errors import InvalidInput
from recollect_graph.results import Invalidation
from recollect_graph.services.kernel import fulltext
from recollect_graph.services.kernel.times import now_utc
from recollect_graph.services.kernel.validation import in_range, require_text
from recollect_graph.services.knowledge import footprint
from recollect_graph.services.knowledge.entries import Knowledge
from recollect_graph.services.search.hybrid import lucene_query

#: Commit subjects that name a migration: group 1 the old concept, group 2 the new one.
MIGRATION_PATTERNS = [
    re.compile(
        r"\bmigrat(?:e|ed|es|ing)\s+(?:from\s+)?([\w.+#-]+)\s+(?:to|with)\s+([\w.+#-]+)", re.I
    ),
    re.compile(r"\b(?:refactor|rewrite):\s+([\w.+#-]+)\s+(?:to|->)\s+([\w.+#-]+)", re.I),
    re.compile(r"\breplace[ds]?\s+([\w.+#-]+)\s+(?:with|by)\s+([\w.+#-]+)", re.I),
    re.compile(r"\bswitch(?:ed|es)?\s+from\s+([\w.+#-]+)\s+to\s+([\w.+#-]+)", re.I),
    re.compile(r"\bmove[ds]?\s+from\s+([\w.+#-]+)\s+to\s+([\w.+#-]+)", re.I),
    re.compile(r"\bremove[ds]?\s+([\w.+#-]+)\s+(?:and|,)\s+use\s+([\w.+#-]+)", re.I),
]


class Invalidations:
    """Invalidation over one knowledge service (``knowledge`` and ``db`` set by the subclass)."""

    knowledge: Knowledge
    db: Db

    def invalidate(
        self,
        scope_id: str,
        pattern: str,
        *,
        reason: str,
        replacement: str | None = None,
        weaken_factor: float = 0.1,
        owner_id: str = "system",
    ) -> Invalidation:
        """Weaken the current entries that mention a deprecated concept.

        Confidence and half-life are multiplied by ``weaken_factor`` (floors 0.05 and 0.5 days).
        With a ``replacement`` text, an entry for it is written and supersedes the weakened
        entries (retired, ``SUPERSEDES`` edges). Undoable as one operation.
        """
        scope_id = require_text(scope_id, "scope_id")
        phrase = require_text(pattern, "pattern", max_len=200).lower()
        reason = require_text(reason, "reason", max_len=500)
        factor = in_range(weaken_factor, "weaken_factor", 0.0, 1.0)
        lucene = lucene_query(phrase)
        if lucene is None:
            raise InvalidInput("pattern has no words to look for")
        now = now_utc()
        ids = [
            r["id"]
            for r in self.db.read(
                "supersede/find_mentions",
                scope_id=scope_id,
                lucene=fulltext.in_scope(lucene, scope_id),
                phrase=phrase,
                limit=10_000,
            )
        ]
        written = None
        if replacement:
            item = {
                "content": replacement,
                "source": "system",
                "metadata": {"supersedes": pattern, "reason": reason},
            }
            written = self.knowledge.prepare([item], scope_id=scope_id, owner_id=owner_id)
            ids = [i for i in ids if i not in written.ids]

        def tx_fn(tx: Tx) -> Invalidation:
            # the replacement is written in this transaction: all of it commits, or nothing;
            # what is weakened is captured first, so that undo restores it exactly
            capture = footprint.Capture(tx.run, scope_id, entries=ids)
            new_id, created = None, False
            if written is not None:
                (entry,) = self.knowledge.write_prepared(tx, written)
                new_id, created = entry.id, bool(entry.created)
            if not ids:  # nothing matched: nothing weakened, no operation
                return Invalidation(invalidated=[], replacement_id=new_id, operation_id=None)
            tx.run("supersede/weaken", ids=ids, scope_id=scope_id, factor=factor, now=now)
            if new_id:
                capture.add(entries=[new_id])
                tx.run("supersede/retire", ids=ids, scope_id=scope_id, now=now, by=new_id)
                tx.run(
                    "supersede/link",
                    rows=[{"source_id": new_id, "target_id": o, "reason": reason} for o in ids],
                    rel_type="SUPERSEDES",
                    origin="invalidate",
                    now=now,
                )
            change = capture.finish()
            op = None
            if change is not None:
                op = footprint.record(
                    tx.run,
                    change,
                    kind="invalidate",
                    scope_id=scope_id,
                    now=now,
                    entry_ids=ids,
                    reason=reason,
                    extra={"created_entries": [new_id] if created and new_id else []},
                )
            return Invalidation(invalidated=ids, replacement_id=new_id, operation_id=op)

        return self.db.write_tx(tx_fn)

    def invalidate_from_git(
        self, scope_id: str, *, repo: Path | str = ".", days: int = 7
    ) -> dict[str, Any]:
        """Find migrations in recent commit subjects and invalidate the old concept.

        "migrate X to Y", "replace X with Y", "switch from X to Y", "move from X to Y",
        "refactor: X -> Y", "remove X and use Y": entries mentioning X are weakened and
        superseded by a note that Y replaced X.
        """
        try:
            subjects = subprocess.run(
                ["git", "log", f"--since={int(days)} days", "--pretty=format:%s"],
                cwd=repo,
                capture_output=True,
                text=True,
                timeout=60,
                check=True,
            ).stdout.splitlines()
        except (OSError, subprocess.SubprocessError) as e:
            raise InvalidInput(f"cannot read the git log of {repo}: {e}") from e
        migrations = detect_migrations(subjects)
        results = [
            {
                **m,
                **self.invalidate(
                    scope_id,
                    m["from"],
                    reason=m["subject"],
                    replacement=f"{m['to']} replaced {m['from']} ({m['subject']})",
                ).model_dump(),
            }
            for m in migrations
        ]
        return {"migrations": results, "invalidated": sum(len(r["invalidated"]) for r in results)}


def detect_migrations(subjects: Sequence[str]) -> list[dict[str, str]]:
    """Migrations named in commit subjects: ``[{from, to, subject}]``."""
    out = []
    for s in subjects:
        for rx in MIGRATION_PATTERNS:
            m = rx.search(s)
            if m and m.group(1).lower() != m.group(2).lower():
                out.append({"from": m.group(1), "to": m.group(2), "subject": s})
                break
    return out
