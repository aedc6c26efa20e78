"""The value normaliser: units, counts, money, versions, dates, weekdays, frequencies."""

from __future__ import annotations

import pytest

from recollect_graph.nlp.values import comparable, normalise, number, same_value, version_split


def key(text: str, kind: str = "any") -> str:
    v = normalise(text, kind)
    assert v is not None, text
    return v.key


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("5 minutes", "300 seconds"),
        ("24 hours", "one day"),
        ("half a minute", "30 seconds"),
        ("10 MB", "10 megabytes"),
        ("2 weeks", "14 days"),
        ("27 minutes and 45 seconds", "1665 seconds"),
        ("20 dozen", "240"),
        ("twelve", "12"),
        ("every week", "weekly"),
        ("4 times a week", "four times a week"),
        ("March 3", "3 March"),
        ("2026-04-01", "April 1, 2026"),
        ("6:00 pm", "6pm"),
        ("$400,000", "$400k"),
    ],
)
def test_same_value_in_other_words(a: str, b: str) -> None:
    ka, kb = key(a), key(b)
    assert comparable(ka, kb) and same_value(ka, kb), (ka, kb)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("5 minutes", "10 minutes"),
        ("30 days", "90 days"),
        ("every day", "every week"),
        ("three times a week", "four times a week"),
        ("March 3", "March 10"),
        ("Monday", "Tuesday"),
        ("7:00 pm", "6:00 pm"),
        ("12", "9"),
    ],
)
def test_other_values_differ(a: str, b: str) -> None:
    ka, kb = key(a), key(b)
    assert comparable(ka, kb) and not same_value(ka, kb), (ka, kb)


def test_units_of_other_dimensions_are_not_compared() -> None:
    assert not comparable(key("500 milliseconds"), key("500 MB"))
    assert not comparable(key("5 minutes"), key("Monday"))


def test_versions() -> None:
    assert version_split("postgresql 14") == ("postgresql", "14")
    assert version_split("python 3.11.6") == ("python", "3.11.6")
    assert version_split("postgresql") == ("postgresql", None)
    assert same_value("v:python@3.11", "v:python@3.11.6")
    assert not same_value("v:python@3.11", "v:python@3.12")
    assert not same_value("v:postgres@14", "v:postgres@15")


def test_number_words() -> None:
    assert number("twelve") == 12 and number("1,200") == 1200 and number("an") == 1
    assert number("seventh") == 7 and number("banana") is None


def test_weekday_lists_are_one_value() -> None:
    assert key("Mondays, Wednesdays and Fridays") == "w:monday,wednesday,friday"
