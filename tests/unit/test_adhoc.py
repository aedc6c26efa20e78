"""How the analyst's own Cypher is planned and which plan operators count as reads."""

from __future__ import annotations

from recollect_graph.db import adhoc


def test_explain_text_plans_without_running() -> None:
    assert adhoc.explain_text("MATCH (n) RETURN n") == "EXPLAIN MATCH (n) RETURN n"
    assert adhoc.explain_text("  profile MATCH (n) RETURN n") == "EXPLAIN MATCH (n) RETURN n"
    assert adhoc.explain_text("EXPLAIN RETURN 1") == "EXPLAIN EXPLAIN RETURN 1"  # Neo4j accepts


def test_operator_kinds() -> None:
    assert adhoc.operator_name({"operatorType": "Expand(All)@neo4j"}) == "Expand"
    assert adhoc.operator_name({"operatorType": "AdministrationCommand@system"}) == (
        "AdministrationCommand"
    )
    for read in ("NodeUniqueIndexSeekByRange", "DirectedRelationshipIndexScan", "ShowIndexes",
                 "NodeVectorIndexSearch"):  # fmt: skip
        assert adhoc.is_read_operator(read)
    for other in ("LoadCSV", "ProcedureCall", "ShowTransactions", "TerminateTransactions",
                  "ShowSettings", "Create", "TransactionApply", "RunQueryAt"):  # fmt: skip
        assert not adhoc.is_read_operator(other)
    op = {"args": {"Details": "db.labels() :: (label :: STRING)"}}
    assert adhoc.procedure_name(op) == "db.labels"
