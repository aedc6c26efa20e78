"""Time in recall and search.

Relative expressions ("last week", "in March") resolved against a moment, calendar dates a text
names ("8 May 2023"), and how close a moment is to them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
MON_ABBR = [m[:3] for m in MONTHS]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
SEASONS = {
    "winter": (12, 2),
    "spring": (3, 5),
    "summer": (6, 8),
    "autumn": (9, 11),
    "fall": (9, 11),
}


# -- time windows -------------------------------------------------------------------------------
@dataclass(frozen=True)
class TimeWindow:
    """A span of time a recall points at (``start`` inclusive, ``end`` exclusive)."""

    start: datetime
    end: datetime
    expression: str


def _month_window(year: int, month: int, months: int = 1) -> tuple[datetime, datetime]:
    start = datetime(year, month, 1, tzinfo=UTC)
    y, m = year + (month - 1 + months) // 12, (month - 1 + months) % 12 + 1
    return start, datetime(y, m, 1, tzinfo=UTC)


_AMOUNT = r"a|one|two|three|four|five|six|a few|few|a couple of|couple of|\d{1,3}"
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
#: A span counted back from today: "(in) the past month", "the last two weeks", "this past week";
#: not a part of something ("the last week of June", "the last year of college") nor a bare
#: "the last day" (of a trip, mostly).
_SPAN_BACK = re.compile(
    rf"\b(?:the|this) (?:past|last)\s+(?:({_AMOUNT})\s+)?(day|week|month|year)s?\b(?!\s+of\b)"
)
#: The calendar span up to today: "this week", "earlier this month", "so far this year" (not
#: "this weekend").
_SO_FAR = re.compile(r"\bthis (week|month|year)\b")


def time_windows(text: str, now: datetime) -> list[TimeWindow]:
    """Resolve the time expressions of ``text`` against ``now`` (the recall's moment).

    Month and season names resolve to their latest occurrence not after ``now``.
    """
    out: list[TimeWindow] = []
    low = text.lower()
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    for m in re.finditer(r"\b(\d{4})-(\d{2})-(\d{2})\b", low):
        try:
            d = datetime(int(m.group(1)), int(m.group(2)), int(m.group(3)), tzinfo=UTC)
        except ValueError:
            continue
        out.append(TimeWindow(d, d + timedelta(days=1), m.group(0)))
    rel = {
        "yesterday": (1, 1),
        "today": (0, 1),
        "this morning": (0, 1),
        "last night": (1, 1),
        "last week": (14, 14),
        "last month": (62, 62),
        "last sprint": (28, 28),
        "last quarter": (180, 180),
    }
    for expr, (back, span) in rel.items():
        # "last weekend" counts as "last week"; "the last week of June" does not
        if re.search(re.escape(expr) + r"(?!\s+of\b)", low):
            out.append(
                TimeWindow(
                    day - timedelta(days=back),
                    day - timedelta(days=back - span) + timedelta(days=1),
                    expr,
                )
            )
    amount = {
        "a": 1,
        "one": 1,
        "two": 2,
        "three": 3,
        "four": 4,
        "five": 5,
        "six": 6,
        "a few": 3,
        "few": 3,
        "a couple of": 2,
        "couple of": 2,
    }
    for m in re.finditer(
        r"\b(a|one|two|three|four|five|six|a few|few|a couple of|couple of|\d{1,3})\s+"
        r"(day|week|month)s?\s+ago\b",
        low,
    ):
        n = int(m.group(1)) if m.group(1).isdigit() else amount[m.group(1)]
        unit = {"day": 1, "week": 7, "month": 30}[m.group(2)]
        centre = day - timedelta(days=n * unit)
        slack = timedelta(days=max(1, n * unit // 2))
        out.append(TimeWindow(centre - slack, centre + slack, m.group(0)))
    for m in _SPAN_BACK.finditer(low):
        # "in the past month", "over the last two weeks", "this past week": from that long
        # before today (a tenth more, at least a day: people round) through today
        if m.group(1) is None and m.group(2) == "day":
            continue  # "the last day" of something, mostly
        count = m.group(1) or "one"
        days = (int(count) if count.isdigit() else amount[count]) * _UNIT_DAYS[m.group(2)]
        start = day - timedelta(days=days + max(1, days // 10))
        out.append(TimeWindow(start, day + timedelta(days=1), m.group(0)))
    for m in _SO_FAR.finditer(low):
        # "this month", "earlier this year": from the calendar week's, month's or year's start
        calendar = m.group(1)
        if calendar == "week":
            start = day - timedelta(days=day.weekday())
        elif calendar == "month":
            start = day.replace(day=1)
        else:
            start = day.replace(month=1, day=1)
        out.append(TimeWindow(start, day + timedelta(days=1), m.group(0)))
    for m in re.finditer(rf"\blast ({'|'.join(WEEKDAYS)})\b", low):
        # the latest such weekday strictly before today
        back = (day.weekday() - WEEKDAYS.index(m.group(1))) % 7 or 7
        start = day - timedelta(days=back)
        out.append(TimeWindow(start, start + timedelta(days=1), m.group(0)))
    if "last year" in low:
        out.append(
            TimeWindow(
                datetime(now.year - 1, 1, 1, tzinfo=UTC),
                datetime(now.year, 1, 1, tzinfo=UTC),
                "last year",
            )
        )
    if re.search(r"\b(early|beginning of) (this )?year\b", low):
        out.append(
            TimeWindow(
                datetime(now.year, 1, 1, tzinfo=UTC),
                datetime(now.year, 4, 1, tzinfo=UTC),
                "early this year",
            )
        )
    for i, name in enumerate(MONTHS):
        if re.search(rf"\b{name}\b", low) and not (
            name == "may"
            and not re.search(r"\b(in|of|early|mid|late|during|around|since|until)\s+may\b", low)
        ):
            year = now.year if i + 1 <= now.month else now.year - 1
            s, e = _month_window(year, i + 1)
            out.append(TimeWindow(s, e, name))
    for name, (first, last) in SEASONS.items():
        if re.search(rf"\b{name}\b", low):
            year = now.year if first <= now.month else now.year - 1
            if first > last:  # winter spans the new year
                s, _ = _month_window(year, first)
                e = _month_window(s.year + 1, last)[1]
            else:
                s, e = _month_window(year, first, last - first + 1)
            out.append(TimeWindow(s, e, name))
    return out


def proximity(moment: datetime, windows: Iterable[TimeWindow]) -> float:
    """1.0 inside a window, decaying with distance (half at 15 days outside); 0 with none."""
    best = 0.0
    for w in windows:
        if w.start <= moment < w.end:
            return 1.0
        gap = min(abs((moment - w.start).total_seconds()), abs((moment - w.end).total_seconds()))
        best = max(best, 1.0 / (1.0 + gap / (15 * 86400)))
    return best


_MONTH_RE = "|".join(MONTHS + [m for m in MON_ABBR if m != "may"])
_DAY_MONTH_YEAR = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH_RE})\.?,?\s+(\d{{4}})\b", re.I
)
_MONTH_DAY_YEAR = re.compile(
    rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I
)
_MONTH_YEAR = re.compile(rf"\b({_MONTH_RE})\.?,?\s+(\d{{4}})\b", re.I)
_YEAR = re.compile(r"\b(?:in|of|during|since|by)\s+((?:19|20)\d{2})\b", re.I)


def _month_no(name: str) -> int:
    return MON_ABBR.index(name.lower()[:3]) + 1


def absolute_dates(text: str) -> list[tuple[TimeWindow, str]]:
    """Calendar dates a text names, with their granularity (``day``, ``month`` or ``year``).

    Example:
        >>> [(w.start.date().isoformat(), g) for w, g in absolute_dates("on 8 May 2023")]
        [('2023-05-08', 'day')]
    """
    out: list[tuple[TimeWindow, str]] = []
    taken: list[tuple[int, int]] = []

    def add(m: re.Match[str], start: datetime, end: datetime, gran: str) -> None:
        if any(a < m.end() and m.start() < b for a, b in taken):
            return
        taken.append((m.start(), m.end()))
        out.append((TimeWindow(start, end, m.group(0)), gran))

    for pattern, order in ((_DAY_MONTH_YEAR, "dmy"), (_MONTH_DAY_YEAR, "mdy")):
        for m in pattern.finditer(text):
            d, mo, y = (
                (m.group(1), m.group(2), m.group(3))
                if order == "dmy"
                else (m.group(2), m.group(1), m.group(3))
            )
            try:
                day = datetime(int(y), _month_no(mo), int(d), tzinfo=UTC)
            except ValueError:
                continue
            add(m, day, day + timedelta(days=1), "day")
    for m in re.finditer(r"\b(\d{4})-(\d{2})-(\d{2})\b", text):
        try:
            day = datetime(int(m.group(1)), int(m.group(2)), int(m.group(3)), tzinfo=UTC)
        except ValueError:
            continue
        add(m, day, day + timedelta(days=1), "day")
    for m in _MONTH_YEAR.finditer(text):
        s, e = _month_window(int(m.group(2)), _month_no(m.group(1)))
        add(m, s, e, "month")
    for m in _YEAR.finditer(text):
        y = int(m.group(1))
        add(m, datetime(y, 1, 1, tzinfo=UTC), datetime(y + 1, 1, 1, tzinfo=UTC), "year")
    return out


def date_match(moment: datetime, dates: Iterable[tuple[TimeWindow, str]]) -> float:
    """How well ``moment`` fits the named dates, in [0, 1].

    1 inside a named day or month (a day either side counts) or inside a resolved relative
    window (granularity ``window``: "four weeks ago", already wide), 0.5 within a week of a named
    day or month or inside a named year, else 0.
    """
    best = 0.0
    for w, gran in dates:
        if gran == "window":
            if w.start <= moment < w.end:
                return 1.0
            continue
        if gran == "year":
            if w.start <= moment < w.end:
                best = max(best, 0.5)
            continue
        slack = timedelta(days=1)
        if w.start - slack <= moment < w.end + slack:
            return 1.0
        if w.start - timedelta(days=7) <= moment < w.end + timedelta(days=7):
            best = max(best, 0.5)
    return best
