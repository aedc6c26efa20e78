"""Typed claim values and their normal forms (units, versions, dates, weekdays, number words).

Two values of one slot are compared on their normal form, so "5 minutes" and "300 seconds" are
the same value, "PostgreSQL 14" and "PostgreSQL 15" differ, and "PostgreSQL" says nothing against
"PostgreSQL 14". A normal form is a short string: ``q:time:300`` (seconds), ``q:bytes:10000000``,
``q:count:engineer:12``, ``v:postgres@14``, ``d:03-03`` or ``d:2026-04-01``, ``w:friday``,
``f:3/week``.

The unit table is ours, not a quantity library's: the few dimensions claims carry (time, data
size, money, counts) fit in forty lines, while ``pint`` took 1.2 s to import, has no ``dozen`` or
``KB`` and treats bytes as dimensionless.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Value", "comparable", "normalise", "number", "same_value", "version_split"]

_SMALL = {
    "zero": 0, "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
    "couple": 2, "half": 0.5, "single": 1, "once": 1, "twice": 2, "thrice": 3,
}  # fmt: skip
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
            "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10}  # fmt: skip

#: unit word -> (dimension, factor to the base unit: seconds, bytes)
UNITS: dict[str, tuple[str, float]] = {}
for _names, _dim, _f in (
    (("ms", "msec", "millisecond", "milliseconds"), "time", 0.001),
    (("s", "sec", "secs", "second", "seconds"), "time", 1),
    (("min", "mins", "minute", "minutes"), "time", 60),
    (("h", "hr", "hrs", "hour", "hours"), "time", 3600),
    (("day", "days"), "time", 86400),
    (("week", "weeks", "wk", "wks"), "time", 604800),
    (("month", "months"), "time", 2629800),
    (("year", "years", "yr", "yrs"), "time", 31557600),
    (("byte", "bytes"), "bytes", 1),
    (("kb", "kilobyte", "kilobytes"), "bytes", 1e3),
    (("mb", "megabyte", "megabytes", "meg", "megs"), "bytes", 1e6),
    (("gb", "gigabyte", "gigabytes", "gig", "gigs"), "bytes", 1e9),
    (("tb", "terabyte", "terabytes"), "bytes", 1e12),
    (("kib",), "bytes", 1024),
    (("mib",), "bytes", 1024**2),
    (("gib",), "bytes", 1024**3),
    (("percent", "%"), "percent", 1),
):
    for _n in _names:
        UNITS[_n] = (_dim, _f)

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december")  # fmt: skip
_PERIOD = {"day": "day", "daily": "day", "night": "day", "nightly": "day", "morning": "day",
           "week": "week", "weekly": "week", "month": "month", "monthly": "month",
           "year": "year", "yearly": "year", "annually": "year", "hour": "hour",
           "hourly": "hour", "fortnight": "2week", "quarter": "quarter",
           "quarterly": "quarter", "weekend": "week"}  # fmt: skip
_PERIOD_DAYS = {"hour": 1 / 24, "day": 1, "week": 7, "2week": 14, "month": 30, "quarter": 91,
                "year": 365}  # fmt: skip

_NUM = r"(?:\d[\d,]*(?:\.\d+)?|" + "|".join(sorted(_SMALL, key=len, reverse=True)) + r")"
_UNIT_RE = re.compile(
    r"(?<![\w.])("
    + _NUM
    + r")\s*("
    + "|".join(sorted((re.escape(u) for u in UNITS), key=len, reverse=True))
    + r")(?![\w])"
)
_NUM_RE = re.compile(r"(?<![\w.])\$?(" + _NUM + r")(?:\s*(k|m|bn)\b)?(?![\w.])")


@dataclass(frozen=True)
class Value:
    """A typed value: its kind, its normal form and the words it came from."""

    kind: str
    key: str
    text: str


def number(word: str) -> float | None:
    """A number said with digits or words ("12", "1,200", "twelve", "a", "half")."""
    w = word.lower().strip()
    if w in _SMALL:
        return float(_SMALL[w])
    if w in _ORDINAL:
        return float(_ORDINAL[w])
    w = w.replace(",", "").lstrip("$")
    try:
        return float(w)
    except ValueError:
        return None


def _fmt(x: float) -> str:
    return str(int(x)) if abs(x - round(x)) < 1e-9 else f"{x:.6g}"


def _frequency(t: str) -> str | None:
    m = re.search(r"\b(" + _NUM + r"|once|twice)\s+(?:times?\s+)?(?:a|an|per|each|every)\s+"
                  r"(day|week|month|year|hour|fortnight)\b", t)  # fmt: skip
    if m and (n := number(m.group(1))) is not None:
        return f"f:{_fmt(n / _PERIOD_DAYS[_PERIOD[m.group(2)]] * 7)}/week"
    m = re.search(r"\bevery\s+(?:(other)\s+|(" + _NUM + r")\s+)?(day|week|month|year|hour|"
                  r"night|morning|fortnight|quarter)s?\b", t)  # fmt: skip
    if m:
        k = 2.0 if m.group(1) else (number(m.group(2)) if m.group(2) else 1.0) or 1.0
        return f"f:{_fmt(7 / (_PERIOD_DAYS[_PERIOD[m.group(3)]] * k))}/week"
    m = re.search(r"\b(daily|nightly|weekly|monthly|yearly|annually|hourly|quarterly)\b", t)
    if m:
        return f"f:{_fmt(7 / _PERIOD_DAYS[_PERIOD[m.group(1)]])}/week"
    return None


def _date(t: str) -> str | None:
    m = re.search(r"\b(\d{4})-(\d{2})-(\d{2})\b", t)
    if m:
        return f"d:{m.group(1)}-{m.group(2)}-{m.group(3)}"
    months = "|".join(MONTHS) + "|" + "|".join(m[:3] for m in MONTHS)
    m = re.search(r"\b(" + months + r")\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4}))?", t)
    if not m:
        m2 = re.search(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(" + months + r")\b(?:,?\s+"
                       r"(\d{4}))?", t)  # fmt: skip
        if not m2:
            return None
        day, mon, year = m2.group(1), m2.group(2), m2.group(3)
    else:
        mon, day, year = m.group(1), m.group(2), m.group(3)
    month = next(i for i, name in enumerate(MONTHS, 1) if name.startswith(mon[:3]))
    md = f"{month:02d}-{int(day):02d}"
    return f"d:{year}-{md}" if year else f"d:{md}"


def _weekdays(t: str) -> str | None:
    days = [d for d in WEEKDAYS if re.search(rf"\b{d[:3]}(?:{d[3:]})?s?\b", t)]
    return "w:" + ",".join(days) if days else None


def _clock(t: str) -> str | None:
    m = re.search(r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)", t)
    if not m:
        m = re.search(r"\b(\d{1,2}):(\d{2})\b", t)
        if not m:
            return None
        return f"t:{int(m.group(1)):02d}:{m.group(2)}"
    h = int(m.group(1)) % 12 + (12 if m.group(3).startswith("p") else 0)
    return f"t:{h:02d}:{m.group(2) or '00'}"


def _quantity(t: str, counted: str | None) -> str | None:
    """Sum of number-unit pairs ("27 minutes and 45 seconds"), else a count of a noun."""
    total: dict[str, float] = {}
    h = re.search(r"\bhalf (?:an? )?(hour|minute|day|second|week|month|year)\b", t)
    if h:
        dim, factor = UNITS[h.group(1)]
        return f"q:{dim}:{_fmt(0.5 * factor)}"
    for m in _UNIT_RE.finditer(t):
        n = number(m.group(1))
        if n is None:
            continue
        dim, factor = UNITS[m.group(2)]
        total[dim] = total.get(dim, 0.0) + n * factor
    if len(total) == 1:
        dim, x = next(iter(total.items()))
        return f"q:{dim}:{_fmt(x)}"
    c = _NUM_RE.search(t)
    if not c:
        return None
    n = number(c.group(1))
    if n is None:
        return None
    n *= {"k": 1e3, "m": 1e6, "bn": 1e9}.get(c.group(2) or "", 1)
    rest = t[c.end() :].split()
    if rest and rest[0] == "dozen":
        n, rest = n * 12, rest[1:]
    if c.group(0).startswith("$") or (rest and rest[0] in ("dollars", "usd", "eur", "euros")):
        return f"q:money:{_fmt(n)}"
    return f"q:count:{counted or ''}:{_fmt(n)}"


def version_split(text: str) -> tuple[str, str | None]:
    """A technology name and its version: ("postgresql 14.2" -> ("postgresql", "14.2"))."""
    m = re.match(r"^(?P<n>[a-z][\w.+#-]*(?: [a-z][\w.+#-]*)?)\s*(?:v|version\s+)?"
                 r"(?P<v>\d+(?:\.\d+|\.x)*)$", text.strip().lower())  # fmt: skip
    if m and not re.fullmatch(r"[\d.]+", m.group("n")):
        return m.group("n").strip(), m.group("v")
    return text.strip().lower(), None


def normalise(text: str, kind: str, counted: str | None = None) -> Value | None:
    """The normal form of ``text`` read as a value of ``kind``.

    Kinds: ``quantity`` (number with unit, money or a count of ``counted``), ``date``,
    ``weekday``, ``frequency``, ``time`` (clock time), ``version`` and ``any`` (the first that
    fits, in the order frequency, date, weekday, clock, quantity).
    """
    t = text.lower().strip()
    order = {
        "quantity": (_quantity,),
        "date": (_date,),
        "weekday": (_weekdays,),
        "frequency": (_frequency,),
        "time": (_clock,),
        "any": (_frequency, _date, _weekdays, _clock, _quantity),
    }.get(kind)
    if order is None:
        return None
    for fn in order:
        key = fn(t, counted) if fn is _quantity else fn(t)  # type: ignore[operator]
        if key:
            return Value(kind=key.split(":")[0], key=key, text=text)
    return None


def comparable(a: str, b: str) -> bool:
    """Whether two normal forms measure the same thing (same kind, same dimension)."""
    pa, pb = a.split(":"), b.split(":")
    if pa[0] != pb[0]:
        return False
    if pa[0] == "q":
        return pa[1:-1] == pb[1:-1]
    return True


def same_value(a: str, b: str) -> bool:
    """Whether two comparable normal forms are one value (within rounding; versions by prefix)."""
    if a == b:
        return True
    pa, pb = a.split(":"), b.split(":")
    if pa[0] == "q":
        x, y = float(pa[-1]), float(pb[-1])
        return abs(x - y) <= 1e-6 * max(abs(x), abs(y), 1.0)
    if pa[0] == "d":
        da, db = pa[1], pb[1]
        return da.endswith(db) or db.endswith(da)
    if pa[0] == "v":
        (na, va), (nb, vb) = pa[1].split("@"), pb[1].split("@")
        return na == nb and (va.startswith(vb + ".") or vb.startswith(va + "."))
    return False
