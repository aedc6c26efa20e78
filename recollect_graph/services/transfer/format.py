"""The export format: key labels, value encoding and id derivation.

See :mod:`recollect_graph.services.transfer.service` for the format and the export/import service.
The labels and relationship types an export may hold are the graph's
(:mod:`recollect_graph.vocabulary`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime, timezone
from typing import Any

import neo4j.time as nt
import orjson

from recollect_graph import ids
from recollect_graph.errors import InvalidInput
from recollect_graph.ids import chunk_id, collection_id, document_id, entry_id, turn_entry_id
from recollect_graph.ids import recall_node_id as node_id
from recollect_graph.vocabulary import KEY_LABELS, NODE_LABELS, TYPE_LABELS

FORMAT = "recollect-graph-export"
VERSION = 1

#: Properties that hold the id of another node (remapped with the ids).
REF_KEYS = frozenset(
    ("entry_id", "entity_id", "from_id", "to_id", "entry_ids", "memory_ids", "document_id")
)
LABEL_REF_KEYS = {"LinkSuggestion": frozenset(("a", "b"))}
#: Value types that encode and decode as themselves: a list of only these (an embedding) is
#: passed through whole instead of element by element (384 calls per vector).
_PLAIN = frozenset((str, int, float, bool, type(None)))
_TEMPORAL: dict[str, type[Any]] = {
    "$datetime": nt.DateTime,
    "$date": nt.Date,
    "$time": nt.Time,
}


def key_label(labels: Iterable[str]) -> str:
    """The label a node is keyed by (its first label in :data:`KEY_LABELS` order).

    Raises:
        InvalidInput: A label is not in :data:`NODE_LABELS` (or an entry-type label of
            :data:`~recollect_graph.vocabulary.TYPE_LABELS`), or none is a key label.
    """
    names = list(labels)
    unknown = sorted(set(names) - NODE_LABELS - TYPE_LABELS)
    if unknown:
        raise InvalidInput(f"label(s) {', '.join(unknown)} are not part of the export format")
    for k in KEY_LABELS:
        if k in names:
            return k
    raise InvalidInput(f"labels {names} have no key label ({', '.join(KEY_LABELS)})")


# -- values ---------------------------------------------------------------------------------------
def encode(value: Any) -> Any:
    """A property value as JSON: temporal values become ``{"$<type>": iso}``."""
    if isinstance(value, nt.DateTime):
        if value.tzinfo is None:
            return {"$localdatetime": value.iso_format()}
        return {"$datetime": value.iso_format()}
    if isinstance(value, datetime):
        key = "$datetime" if value.tzinfo else "$localdatetime"
        return {key: value.isoformat()}
    if isinstance(value, nt.Date):
        return {"$date": value.iso_format()}
    if isinstance(value, nt.Time):
        return {"$time": value.iso_format()}
    if isinstance(value, nt.Duration):
        return {"$duration": value.iso_format()}
    if isinstance(value, list | tuple):
        if _PLAIN.issuperset(map(type, value)):
            return list(value)
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    return value


def decode(value: Any) -> Any:
    """The inverse of :func:`encode`.

    Raises:
        InvalidInput: A tagged value is malformed.
    """
    if isinstance(value, list):
        if _PLAIN.issuperset(map(type, value)):
            return value
        return [decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    if len(value) == 1:
        ((tag, raw),) = value.items()
        try:
            if tag == "$datetime":
                return _offset_datetime(raw)
            if tag in _TEMPORAL:
                return _TEMPORAL[tag].from_iso_format(raw)
            if tag == "$localdatetime":
                return nt.DateTime.from_iso_format(raw)
            if tag == "$duration":
                return _duration(raw)
        except (ValueError, TypeError) as e:
            raise InvalidInput(f"bad {tag} value {raw!r}: {e}") from e
    return {k: decode(v) for k, v in value.items()}


#: An ISO datetime with an offset whose fraction fits in microseconds (digits past the sixth are
#: zeros, as ``neo4j.time`` writes them): parsed by Python's ``fromisoformat``, 20x faster.
_ISO_MICROSECONDS = re.compile(
    r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6}0{0,3})?(?:Z|[+-]\d\d:\d\d)"
)


def _offset_datetime(raw: str) -> nt.DateTime:
    """A ``$datetime`` with the UTC offset it was written with, as an offset.

    ``neo4j.time`` parses ``+00:00`` into pytz's ``UTC``, which the driver sends as the named
    zone ``UTC``: the property would come back as a different value (Cypher's ``datetime`` with
    offset ``Z`` and with zone ``UTC`` are not equal), so an export imported back into its own
    scope rewrote every such timestamp. A fixed offset is what the export holds.
    """
    if _ISO_MICROSECONDS.fullmatch(raw):
        # Python's parser (in C) keeps a fixed offset; microseconds hold every digit written
        return nt.DateTime.from_native(datetime.fromisoformat(raw))
    value = nt.DateTime.from_iso_format(raw)
    offset = value.utcoffset()
    if offset is None:
        return value
    return value.replace(tzinfo=timezone(offset))


def _duration(raw: str) -> nt.Duration:
    m = re.fullmatch(
        r"P(?:(-?\d+)Y)?(?:(-?\d+)M)?(?:(-?\d+)D)?(?:T(?:(-?\d+)H)?(?:(-?\d+)M)?(?:(-?[\d.]+)S)?)?",
        raw,
    )
    if not m:
        raise ValueError("not an ISO 8601 duration")
    y, mo, d, h, mi, s = (g or "0" for g in m.groups())
    return nt.Duration(
        years=int(y),
        months=int(mo),
        days=int(d),
        hours=int(h),
        minutes=int(mi),
        seconds=float(s),
    )


# -- ids ------------------------------------------------------------------------------------------
#: A derivation: (scope, map of referenced ids) -> the id the services would give the node.
Derive = Callable[[str, Callable[[str], str]], str]


def _claim_id(entry: str, i: int, p: dict[str, Any]) -> str:
    return ids.claim_id(
        entry, i, p.get("predicate"), p.get("subject_key"), p.get("object_key"), p.get("polarity")
    )


def derivation(key: str, labels: list[str], p: dict[str, Any]) -> Derive | None:
    """How the services derive this node's id from its scope and properties, if they do.

    The import re-derives such ids in the target scope (so later writes there find the nodes);
    the caller checks that the derivation reproduces the exported id first.
    """
    s = {k: str(v) for k, v in p.items() if isinstance(v, str | int) and v != ""}
    if key == "Entry" and "Turn" in labels and {"session_id", "source_id"} <= s.keys():
        return lambda sc, _m: turn_entry_id(sc, s["session_id"], s["source_id"])
    if key == "Entry" and "content_hash" in s:
        return lambda sc, _m: entry_id(
            sc, content_sha=s["content_hash"], source_id=s.get("source_id"), force=False
        )
    if key == "Identifier" and {"namespace", "value"} <= s.keys():
        return lambda sc, _m: node_id("identifier", sc, s["namespace"], s["value"])
    if key == "Marker" and {"kind", "value"} <= s.keys():
        return lambda sc, _m: node_id("marker", sc, s["kind"], s["value"])
    if key == "Entity" and "normalized_name" in s:
        return lambda sc, _m: ids.entity_id(sc, s["normalized_name"])
    if key == "Reflection" and "session_id" in s:
        return lambda sc, _m: ids.reflection_id(sc, s["session_id"])
    if key == "LinkSuggestion" and {"a", "b"} <= s.keys():

        def pair(sc: str, m: Callable[[str], str]) -> str:
            return ids.suggestion_id(sc, m(s["a"]), m(s["b"]))

        return pair
    if key == "Collection" and "name" in s:
        return lambda sc, _m: collection_id(sc, s["name"])
    if key == "Document" and {"collection", "source_type", "source_id"} <= s.keys():
        return lambda sc, _m: document_id(sc, s["collection"], s["source_type"], s["source_id"])
    if key == "Chunk" and {"document_id", "content_hash"} <= s.keys():
        for i in range(64):
            if chunk_id(s["document_id"], s["content_hash"], i) == p.get("id"):
                return _chunk(s["document_id"], s["content_hash"], i)
    if key == "Claim" and "entry_id" in s:
        for i in range(64):
            if _claim_id(s["entry_id"], i, p) == p.get("id"):
                return _claim(s["entry_id"], i, p)
    return None


def _chunk(doc: str, h: str, i: int) -> Derive:
    return lambda _sc, m: chunk_id(m(doc), h, i)


def _claim(entry: str, i: int, p: dict[str, Any]) -> Derive:
    return lambda _sc, m: _claim_id(m(entry), i, p)


# -- lines of an export ---------------------------------------------------------------------------
def parse_line(raw: str | dict[str, Any], n: int) -> dict[str, Any] | None:
    """Line ``n`` of an export as a dict (``None`` for a blank line).

    Raises:
        InvalidInput: Not JSON, or not a JSON object.
    """
    if isinstance(raw, dict):
        return raw
    if not raw.strip():
        return None
    try:
        value = orjson.loads(raw)  # ~5x faster than json on a line of floats
    except orjson.JSONDecodeError:
        try:  # what orjson refuses and json reads (NaN, integers past 64 bits)
            value = json.loads(raw)
        except json.JSONDecodeError as e:
            raise InvalidInput(f"line {n} is not valid JSON: {e.msg} (column {e.colno})") from e
    if not isinstance(value, dict):
        raise InvalidInput(f"line {n} is not a JSON object")
    return value


def read_header(it: Iterator[str | dict[str, Any]]) -> dict[str, Any]:
    """The export's header: its first non-blank line, checked for this format and version.

    Raises:
        InvalidInput: No header, another format, or a version this one does not read.
    """
    for raw in it:
        header = parse_line(raw, 1)
        if header is None:
            continue
        if header.get("format") != FORMAT:
            raise InvalidInput(
                f"not a recollect-graph export (format {header.get('format')!r}, "
                f"expected {FORMAT!r})"
            )
        if header.get("version") != VERSION:
            raise InvalidInput(
                f"export format version {header.get('version')!r} is not supported "
                f"(this version reads {VERSION})"
            )
        return header
    raise InvalidInput("the export is empty (no header line)")
