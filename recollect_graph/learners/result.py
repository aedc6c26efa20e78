"""What a learn run reports, per source."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass
class LearnResult:
    """What one learner's run did.

    Attributes:
        source: The learner's source name.
        fetched: Events fetched.
        learned: Entries created (events, patterns and summaries).
        skipped: Reasons with how many events each skipped (all of them, not one).
        errors: ``{event, error}`` for each event that failed (and fetch/pattern errors).
        patterns: The patterns detected (type, summary, old, new, events, and for migrations
            ``superseded``: how many entries they retired in this run).
        summaries: Summary entries planned.
        superseded: Entries retired in this run (older revisions, reverts, migrations).
        dry_run: Nothing was written; ``preview`` lists what would be stored.
        would_learn: Entries a dry run would create.
        preview: The first items a dry run would store.
        since: Where the run started (None: from the beginning).
        position: The cursor's position after the run.
        resumed: The run continued an interrupted one.
        failed: The source could not be read (see ``errors``).
        seconds: Wall time.
    """

    source: str
    fetched: int = 0
    learned: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    errors: list[dict[str, str]] = field(default_factory=list)
    patterns: list[dict[str, Any]] = field(default_factory=list)
    summaries: int = 0
    superseded: int = 0
    dry_run: bool = False
    would_learn: int = 0
    preview: list[dict[str, Any]] = field(default_factory=list)
    since: datetime | None = None
    position: datetime | None = None
    resumed: bool = False
    failed: bool = False
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (times as ISO strings)."""
        out = {
            "source": self.source,
            "fetched": self.fetched,
            "learned": self.learned,
            "skipped": dict(self.skipped.most_common()),
            "skipped_total": sum(self.skipped.values()),
            "errors": self.errors,
            "patterns": self.patterns,
            "summaries": self.summaries,
            "superseded": self.superseded,
            "dry_run": self.dry_run,
            "since": self.since.isoformat() if self.since else None,
            "position": self.position.isoformat() if self.position else None,
            "resumed": self.resumed,
            "failed": self.failed,
            "seconds": self.seconds,
        }
        if self.dry_run:
            out["would_learn"] = self.would_learn
            out["preview"] = self.preview
        return out
