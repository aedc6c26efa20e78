"""The learner behaviour: what a source of knowledge implements, and the records it returns.

A learner reads one kind of source (a git repository, shell history, CI reports, notes...)
and turns its events into :class:`Extract` records; the :class:`~.runner.LearnerRunner` stores
them. Required: :meth:`Learner.source`, :meth:`Learner.fetch_since` and :meth:`Learner.extract`.
Optional (looked up with ``getattr``):

- ``detect_patterns(events) -> list[Pattern]``: cross-event patterns (migrations, flaky tests);
- ``summarize(events, scope_id) -> list[Extract]``: higher-level entries over a run's events;
- ``stream() -> str | None``: which repository/folder/files this instance reads, so two
  instances of one source keep separate cursors in a scope;
- ``use_state(rows)``: called before ``fetch_since`` with what this learner stored in the scope
  up to ``since`` (``source_id``, ``entry_type``, ``valid_from``), for learners that follow
  items across runs (CI follows each test from failure to resolution).

Example:
    >>> class Todo:
    ...     def source(self) -> str:
    ...         return "todo"
    ...     def fetch_since(self, since, scope_id):
    ...         return [Event(key="1", at=None, data={"text": "ship the release"})]
    ...     def extract(self, event):
    ...         return Extract(content=event.data["text"], source_id=event.key)
    >>> isinstance(Todo(), Learner)
    True
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, runtime_checkable

from recollect_graph.errors import InvalidInput, RecollectError
from recollect_graph.vocabulary import ENTRY_TYPES, VALENCES

#: Source names: lower-case words (they become part of cursor ids and source ids).
SOURCE_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")


class LearnerError(RecollectError):
    """A learner cannot read its source (not a git repository, no such file...)."""

    code = "learner"


class LearnerPluginError(LearnerError):
    """A third-party learner is unknown, fails to load, or does not behave like a learner."""

    code = "learner_plugin"


@dataclass(frozen=True)
class Event:
    """One thing a learner fetched (a commit, a history command, a test result, a note).

    Attributes:
        key: Unique within the learner (commit sha, command hash, test id and run...).
        at: When it happened (timezone-aware); the cursor advances by it. ``None`` when the
            source has no time (such events are fetched again each run and skipped as known).
        data: Whatever the learner needs to extract it (JSON-friendly values).
    """

    key: str
    at: datetime | None
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Extract:
    """What to store for one event: an entry's content and its lifecycle hints.

    Attributes:
        content: The knowledge (non-empty).
        source_id: Stable id within the learner (commit sha, test case id, path#section); the
            runner stores ``<source>:<source_id>`` and the same id never makes a second entry.
        entry_type: One of :data:`recollect_graph.vocabulary.ENTRY_TYPES`.
        valence: Emotional valence: neutral, positive, negative or critical.
        tags: Tags.
        metadata: JSON-friendly facts; the runner adds ``learned_from``.
        title: Optional title (unique per scope; a taken title moves into metadata).
        summary: Optional one-line summary.
        confidence: 0-1.
        half_life_days: How fast it decays.
        pinned: Never decays.
        valid_from: When it became true.
        revision: A version of the same item (a note's content hash): stored as
            ``<source>:<source_id>@<revision>``; a new revision supersedes the older ones.
        supersedes: Source ids (of this learner) this extract retires (a revert retires the
            reverted commit).
    """

    content: str
    source_id: str
    entry_type: str = "note"
    valence: str = "neutral"
    tags: Sequence[str] = ()
    metadata: Mapping[str, Any] = field(default_factory=dict)
    title: str | None = None
    summary: str | None = None
    confidence: float = 1.0
    half_life_days: float = 7.0
    pinned: bool = False
    valid_from: datetime | None = None
    revision: str | None = None
    supersedes: Sequence[str] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.content, str) or not self.content.strip():
            raise InvalidInput("extract: content must be a non-empty string")
        if not isinstance(self.source_id, str) or not self.source_id.strip():
            raise InvalidInput("extract: source_id must be a non-empty string")
        if self.entry_type not in ENTRY_TYPES:
            raise InvalidInput(
                f"extract: entry_type must be one of {', '.join(ENTRY_TYPES)} "
                f"(got {self.entry_type!r})"
            )
        if self.valence not in VALENCES:
            raise InvalidInput(f"extract: valence must be one of {', '.join(VALENCES)}")
        if isinstance(self.tags, str) or not all(isinstance(t, str) and t for t in self.tags):
            raise InvalidInput("extract: tags must be a list of non-empty strings")
        if not 0.0 <= float(self.confidence) <= 1.0:
            raise InvalidInput("extract: confidence must be between 0 and 1")
        if not 0.01 <= float(self.half_life_days) <= 36500:
            raise InvalidInput("extract: half_life_days must be between 0.01 and 36500")
        if not isinstance(self.metadata, Mapping):
            raise InvalidInput("extract: metadata must be a mapping")
        try:
            json.dumps(dict(self.metadata), default=str)
        except (TypeError, ValueError) as e:
            raise InvalidInput(f"extract: metadata is not JSON-serialisable: {e}") from e
        if isinstance(self.supersedes, str):
            raise InvalidInput("extract: supersedes must be a list of source ids")


@dataclass(frozen=True)
class Skip:
    """An event that is deliberately not stored, and why (counted per reason)."""

    reason: str


@dataclass(frozen=True)
class Pattern:
    """Something seen across events.

    A ``migration`` pattern (``old`` replaced by ``new``) makes the runner store a deprecation
    entry that supersedes the scope's entries mentioning ``old``; any other pattern (``flaky``,
    ...) is stored as an observation.

    Attributes:
        type: ``migration``, ``flaky``, or a learner's own word.
        events: The events that show it.
        summary: One line that says what it is.
        old: For migrations: what was replaced.
        new: For migrations: what replaced it.
        key: Stable identity (default: from type, old and new, or the event keys), so the same
            pattern seen again is not stored twice.
        details: Extra text for the stored entry.
    """

    type: str
    events: Sequence[Event]
    summary: str
    old: str | None = None
    new: str | None = None
    key: str | None = None
    details: str | None = None

    def identity(self) -> str:
        """The pattern's stable key."""
        if self.key:
            return self.key
        if self.old and self.new:
            return f"{self.old.lower()}->{self.new.lower()}"
        return "+".join(sorted(e.key for e in self.events))[:500]


@runtime_checkable
class Learner(Protocol):
    """The behaviour every learner implements (see the module docstring for optional methods)."""

    def source(self) -> str:
        """The source name, e.g. ``git`` (lower-case; part of cursor and source ids)."""
        ...

    def fetch_since(self, since: datetime | None, scope_id: str) -> Sequence[Event]:
        """Events at or after ``since`` (everything when ``None``), oldest first or in any order.

        Raises:
            LearnerError: The source cannot be read.
        """
        ...

    def extract(self, event: Event) -> Extract | Skip:
        """What to store for ``event``, or why not (raise for errors: counted, run continues)."""
        ...


_REL = re.compile(
    r"^\s*(\d+)\s*(m|min|mins|minutes?|h|hours?|d|days?|w|weeks?|months?|y|years?)\s*(ago)?\s*$",
    re.I,
)
_UNIT_DAYS = {"m": 1 / 1440, "h": 1 / 24, "d": 1, "w": 7, "mo": 30, "y": 365}


def parse_since(value: datetime | str | None, *, now: datetime | None = None) -> datetime | None:
    """``since`` as a timezone-aware datetime: a datetime, an ISO date/time or "7 days ago".

    Raises:
        InvalidInput: Anything else.
    """
    if value is None:
        return None
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput("since must be a datetime, an ISO date or e.g. '7 days ago'")
    text = value.strip()
    m = _REL.match(text)
    if m:
        unit = m.group(2).lower()
        key = "mo" if unit.startswith("mo") else "m" if unit.startswith("m") else unit[0]
        return (now or datetime.now(UTC)) - timedelta(days=int(m.group(1)) * _UNIT_DAYS[key])
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError as e:
        raise InvalidInput(
            f"since: {value!r} is not an ISO date/time or a relative time like '7 days ago'"
        ) from e
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def aware_time(t: datetime | None) -> datetime | None:
    """A timezone-aware datetime (naive means UTC)."""
    if t is None:
        return None
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def stream_id(text: str) -> str:
    """A short stable id for a learner's stream (a repository, a folder, a set of files)."""
    return hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:12]
