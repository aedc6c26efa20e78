"""Every vector lookup has its Neo4j 2026 statement, and the client picks one by server version."""

from __future__ import annotations

import re

import pytest
from neo4j import exceptions as nx

from recollect_graph.db.client import Db, _search_internal_error, parse_server_version
from recollect_graph.db.queries import C25_SUFFIX, all_names, cypher, has_c25_variant
from recollect_graph.db.schema import VECTOR_FILTERS

NAMES = all_names()
#: Lookups kept on db.index.vector.queryNodes on 2026 too, with the reason.
NO_VARIANT = {
    # Neo4j 2026.08.1 fails SEARCH inside OPTIONAL CALL over UNWIND rows here with an internal
    # error ("Index 33554430 out of bounds for length 1") once the store has indexed entities;
    # the queryNodes form (25 nearest, filtered by scope) works on 2026 as on 5.26.
    "documents/entity_candidates": "Neo4j 2026 internal error on SEARCH in OPTIONAL CALL",
}
QUERY_NODES = re.compile(r"db\.index\.vector\.queryNodes\('(\w+)'")
SEARCH = re.compile(r"SEARCH (\w+) IN \(VECTOR INDEX (\w+) FOR .*?WHERE (.*?)\s+LIMIT ", re.S)


def test_every_vector_lookup_has_a_cypher_25_variant_and_the_variant_filters_in_the_index() -> None:
    lookups = [
        n
        for n in NAMES
        if not n.endswith(C25_SUFFIX) and QUERY_NODES.search(cypher(n).text) and n not in NO_VARIANT
    ]
    assert len(lookups) >= 8
    assert not any(has_c25_variant(n) for n in NO_VARIANT)
    for name in lookups:
        assert has_c25_variant(name), name
        plain, new = cypher(name), cypher(name + C25_SUFFIX)
        assert new.text.startswith("CYPHER 25"), name
        assert "db.index.vector" not in new.text, name
        assert new.params == plain.params, name  # callers pass the same parameters to both
        searched = SEARCH.findall(new.text)
        assert sorted(i for _, i, _ in searched) == sorted(QUERY_NODES.findall(plain.text)), name
        for var, index, where in searched:
            assert f"{var}.scope_id = $scope_id" in where, (name, index)
            used = set(re.findall(rf"\b{var}\.(\w+)", where))
            assert used <= set(VECTOR_FILTERS[index]), (name, index, used)


def test_the_filtered_index_ddl_declares_exactly_the_filter_properties() -> None:
    text = cypher("admin/vector_indexes_filtered").text
    found = {
        m.group(1): tuple(p.strip().removeprefix("n.") for p in m.group(2).split(","))
        for m in re.finditer(r"CREATE VECTOR INDEX (\w+) .*?WITH \[([^\]]*)\]", text, re.S)
    }
    assert found == VECTOR_FILTERS
    plain = {
        m.group(1)
        for q in (cypher(n) for n in NAMES if n.startswith("schema/"))
        for m in re.finditer(r"CREATE VECTOR INDEX (\w+)", q.text)
    }
    assert plain == set(VECTOR_FILTERS)


class _Versioned(Db):
    """A client whose server version is given (statement choice needs no server)."""

    def __init__(self, version: tuple[int, ...]) -> None:
        self._server_version = version


@pytest.mark.parametrize(
    ("version", "filtered"),
    [((2026, 8, 1), True), ((2026, 1, 0), True), ((2025, 12, 3), False), ((5, 26, 30), False)],
)
def test_the_client_picks_the_statement_by_server_version(
    version: tuple[int, ...], filtered: bool
) -> None:
    db = _Versioned(version)
    assert db.filtered_vectors is filtered
    want = "search/candidates_c25" if filtered else "search/candidates"
    assert db.statement_name("search/candidates") == want
    assert db.statement_name("entries/get_many") == "entries/get_many"  # no variant: as named


def test_server_versions_are_parsed() -> None:
    assert parse_server_version("2026.08.1") == (2026, 8, 1)
    assert parse_server_version("5.26.30-aura") == (5, 26, 30)
    assert parse_server_version("5.27") == (5, 27)
    assert parse_server_version("dev") == ()


@pytest.mark.parametrize(
    ("code", "message", "internal"),
    [
        ("Neo.DatabaseError.Statement.ExecutionFailed", "Index 33554421 out of bounds for length 1", True),
        ("Neo.TransientError.General.DatabaseUnavailable", "Index 7 out of bounds for length 1", True),
        ("Neo.ClientError.Statement.SyntaxError", "Index 3 out of bounds for length 1", False),
        ("Neo.DatabaseError.General.UnknownError", "disk full", False),
    ],
)  # fmt: skip
def test_only_neo4j_s_internal_search_error_falls_back_to_query_nodes(
    code: str, message: str, internal: bool
) -> None:
    """The SEARCH form is given up (for queryNodes) only on the internal error, never on ours."""
    err = nx.Neo4jError._hydrate_neo4j(code=code, message=message)
    assert _search_internal_error(err) is internal
