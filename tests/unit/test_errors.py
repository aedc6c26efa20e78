"""The error families: every error has its own code, every "not found" reports ``not_found``."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator
from typing import get_args

import pytest

import recollect_graph
from recollect_graph.errors import (
    ContradictionNotFound,
    EntryNotFound,
    InvalidInput,
    NotFound,
    RecollectError,
    SchemaMismatch,
    SchemaRemedy,
    SessionNotFound,
)


def _subclasses(cls: type[RecollectError]) -> Iterator[type[RecollectError]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _all_errors() -> list[type[RecollectError]]:
    """Every RecollectError subclass the package defines (all its modules imported)."""
    for mod in pkgutil.walk_packages(recollect_graph.__path__, "recollect_graph."):
        if not mod.name.endswith("__main__"):
            importlib.import_module(mod.name)
    return [c for c in _subclasses(RecollectError) if c.__module__.startswith("recollect_graph.")]


ERRORS = _all_errors()


@pytest.mark.parametrize("cls", ERRORS, ids=lambda c: c.__name__)
def test_every_error_has_a_code_of_its_own(cls: type[RecollectError]) -> None:
    assert re.fullmatch(r"[a-z][a-z_]*", cls.code) and cls.code != RecollectError.code
    if issubclass(cls, NotFound):
        assert cls.code == "not_found" and issubclass(cls, InvalidInput)
    else:
        assert cls.code != "not_found", f"{cls.__name__} is not a NotFound"


def test_not_found_errors_name_the_kind_the_id_and_the_scope() -> None:
    kinds = [c for c in ERRORS if issubclass(c, NotFound) and c is not ContradictionNotFound]
    assert len(kinds) >= 8
    for cls in kinds:
        e = cls("x1", scope_id="me")
        assert (e.kind, e.id, e.scope_id, e.code) == (cls.kind, "x1", "me", "not_found")
        assert str(e).startswith(f"no {cls.kind} ") and str(e).endswith("'x1' in scope 'me'")
    assert str(SessionNotFound("s1", scope_id="me")) == "no session 's1' in scope 'me'"
    e = EntryNotFound("e" * 300)
    assert e.entry_id == e.id == "e" * 300 and str(e) == f"no entry with id {'e' * 100 + '...'!r}"
    pair = ContradictionNotFound("a", "b")
    assert str(pair) == "no contradiction between a and b" and pair.pair == ("a", "b")


def test_schema_mismatch_carries_its_remedy() -> None:
    e = SchemaMismatch("run it", remedy="migrate", command="recollect-graph init")
    assert (str(e), e.remedy, e.command, e.code) == ("run it", "migrate", "recollect-graph init",
                                                      "schema_mismatch")  # fmt: skip
    assert "migrate" in get_args(SchemaRemedy) and "reset_vector_indexes" in get_args(SchemaRemedy)
