"""The export format's values: temporal values round-trip, plain lists pass through whole."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import neo4j.time as nt
import pytest

from recollect_graph.errors import InvalidInput
from recollect_graph.services.transfer.format import decode, encode, parse_line


def test_temporal_values_round_trip_to_the_same_neo4j_types() -> None:
    props = {
        "created_at": nt.DateTime(2025, 3, 1, 12, 30, tzinfo=UTC),
        "day": nt.Date(2025, 3, 1),
        "wait": nt.Duration(days=2, hours=3),
        "history": [{"at": datetime(2025, 1, 2, tzinfo=UTC), "what": "moved"}],
    }
    back = decode(encode(props))
    assert back["created_at"] == props["created_at"]
    assert back["day"] == props["day"]
    assert back["wait"] == props["wait"]
    assert back["history"][0]["what"] == "moved"
    assert isinstance(back["history"][0]["at"], nt.DateTime)


def test_an_embedding_is_passed_through_unchanged() -> None:
    vector = [0.1, -0.25, 0.0, 1, 2.5e-8]
    assert encode(vector) == vector
    assert decode(vector) is vector
    assert encode(("a", None, True)) == ["a", None, True]


def test_a_list_that_holds_a_tagged_value_is_decoded_element_by_element() -> None:
    out = decode([1.0, {"$date": "2025-03-01"}, "x"])
    assert out == [1.0, nt.Date(2025, 3, 1), "x"]


def test_a_malformed_tagged_value_is_a_clear_error() -> None:
    with pytest.raises(InvalidInput, match=r"bad \$datetime value"):
        decode({"created_at": {"$datetime": "yesterday"}})


def test_a_datetime_keeps_its_utc_offset_and_is_not_turned_into_a_named_zone() -> None:
    # pytz's UTC (what neo4j.time parses "+00:00" into) is sent to Neo4j as the zone "UTC",
    # a different value from the offset "Z" the export was made from
    value = decode({"$datetime": "2025-03-01T12:30:00+00:00"})
    assert not getattr(value.tzinfo, "zone", None)
    assert value.utcoffset() == timedelta(0)
    assert value == nt.DateTime(2025, 3, 1, 12, 30, tzinfo=UTC)
    east = decode({"$datetime": "2025-03-01T12:30:00+05:30"})
    assert east.utcoffset() == timedelta(hours=5, minutes=30)


@pytest.mark.parametrize(
    "raw",
    [
        "2025-03-01T12:30:00Z",
        "2025-03-01T12:30:00+00:00",
        "2025-03-01T12:30:00.5-07:00",
        "2025-03-01T12:30:00.123456+05:30",
        "2025-03-01T12:30:00.123456000+00:00",  # as neo4j.time writes microseconds
        "2025-03-01T12:30:00.123456789+00:00",  # nanoseconds: only neo4j.time keeps them
    ],
)
def test_every_written_datetime_reads_back_to_the_instant_and_offset_neo4j_time_reads(
    raw: str,
) -> None:
    value = decode({"$datetime": raw})
    exact = nt.DateTime.from_iso_format(raw.replace("Z", "+00:00"))  # it reads no "Z"
    assert isinstance(value, nt.DateTime)
    assert value == exact and value.nanosecond == exact.nanosecond
    assert value.utcoffset() == exact.utcoffset()
    assert not getattr(value.tzinfo, "zone", None)  # an offset, never a named zone


def test_a_line_json_reads_and_a_fast_parser_refuses_is_still_read() -> None:
    # NaN and integers past 64 bits are JSON that Python's json reads and orjson refuses
    line = parse_line('{"kind": "node", "props": {"x": NaN, "big": 123456789012345678901234}}', 2)
    assert line is not None
    assert line["props"]["big"] == 123456789012345678901234
    assert line["props"]["x"] != line["props"]["x"]  # NaN
    with pytest.raises(InvalidInput, match="line 3 is not valid JSON"):
        parse_line('{"kind": "node", ', 3)
    with pytest.raises(InvalidInput, match="line 4 is not a JSON object"):
        parse_line("[1, 2]", 4)
