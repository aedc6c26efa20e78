"""What the analyst's own Cypher may do: the allow-lists :meth:`Db.run_adhoc` checks plans against.

A read-only query (``rg.query``, ``recollect-graph cypher`` without ``--write``) is planned with
``EXPLAIN`` and accepted only when its query type is a read and every operator of the plan is on
an allow-list: the operators of MATCH, OPTIONAL MATCH, WHERE, WITH, RETURN, UNWIND, ORDER BY,
SKIP, LIMIT, UNION and read-only ``CALL { }`` subqueries (every scan and seek, expands, joins,
aggregations, sorts), ``SHOW INDEXES / CONSTRAINTS / PROCEDURES / FUNCTIONS``, and procedure calls
of :data:`READ_PROCEDURES` only. Everything else is refused, LOAD CSV (local files and URLs),
``TERMINATE`` and ``SHOW TRANSACTIONS``, ``SHOW SETTINGS``, administration commands and
``CALL { } IN TRANSACTIONS`` among them, and so are functions that a plugin adds (the built-in
ones read nothing outside the graph). The plan, not the query text, is what is checked: comments,
casing, backticks and subqueries cannot hide a clause from it.

A query allowed to write (``write=True``, ``--write``) may do anything the user can, except LOAD
CSV, which stays off unless ``RECOLLECT_ALLOW_CSV_URLS=true`` (see ``docs/security.md``).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping
from typing import Any

#: Procedures a read-only query may call: they read the graph's own data and schema only.
READ_PROCEDURES: frozenset[str] = frozenset(
    {
        "db.labels",
        "db.relationshipTypes",
        "db.propertyKeys",
        "db.schema.visualization",
        "db.schema.nodeTypeProperties",
        "db.schema.relTypeProperties",
        "db.index.fulltext.queryNodes",
        "db.index.fulltext.queryRelationships",
        "db.index.fulltext.listAvailableAnalyzers",
        "db.index.vector.queryNodes",
        "db.index.vector.queryRelationships",
        "db.info",
        "db.ping",
        "dbms.components",
    }
)

#: SHOW commands a read-only query may run (plan operator -> clause).
SHOW_COMMANDS: Mapping[str, str] = {
    "ShowIndexes": "SHOW INDEXES",
    "ShowConstraints": "SHOW CONSTRAINTS",
    "ShowProcedures": "SHOW PROCEDURES",
    "ShowFunctions": "SHOW FUNCTIONS",
}

#: Plan operators of read-only clauses (names without the ``@database`` and ``(mode)`` parts).
#: Every scan, seek and index search (a name ending in Scan, Seek, SeekByRange or IndexSearch:
#: Cypher 25's ``SEARCH`` of a vector index, ``NodeVectorIndexSearch``) is a read too.
READ_OPERATORS: frozenset[str] = frozenset(
    {
        # results, projections, filters (RETURN, WITH, WHERE, ORDER BY, SKIP, LIMIT, DISTINCT)
        "ProduceResults", "EmptyResult", "EmptyRow", "Argument", "ArgumentTracker", "Filter",
        "Projection", "Limit", "ExhaustiveLimit", "Skip", "Sort", "PartialSort", "Top",
        "PartialTop", "Top1WithTies", "Distinct", "OrderedDistinct", "EagerAggregation",
        "OrderedAggregation", "Eager", "CacheProperties", "PreserveOrder", "NullifyMetadata",
        "NodeCountFromCountStore", "RelationshipCountFromCountStore",
        # UNWIND, UNION, OPTIONAL MATCH, subqueries (CALL { }, EXISTS { }, COUNT { }, pattern
        # comprehensions) and joins
        "Unwind", "PartitionedUnwind", "Union", "OrderedUnion", "Optional", "Anti", "Apply",
        "SemiApply", "AntiSemiApply", "LetSemiApply", "LetAntiSemiApply", "SelectOrSemiApply",
        "SelectOrAntiSemiApply", "LetSelectOrSemiApply", "LetSelectOrAntiSemiApply",
        "ConditionalApply", "AntiConditionalApply", "RollUpApply", "CartesianProduct",
        "NodeHashJoin", "NodeLeftOuterHashJoin", "NodeRightOuterHashJoin", "ValueHashJoin",
        "TriadicSelection", "TriadicBuild", "TriadicFilter", "AssertSameNode",
        "AssertSameRelationship",
        # pattern expansion and paths
        "Expand", "OptionalExpand", "VarLengthExpand", "ShortestPath", "StatefulShortestPath",
        "Repeat", "BidirectionalRepeat", "PathPropagatingBFS", "ProjectEndpoints",
    }
)  # fmt: skip

_LEAF_READ = re.compile(r"(Scan|Seek|SeekByRange|IndexSearch)$")

#: How a refusal names a plan operator that is not allowed.
CLAUSES: Mapping[str, str] = {
    "LoadCSV": "LOAD CSV (it reads local files and URLs)",
    "TerminateTransactions": "TERMINATE TRANSACTIONS",
    "ShowTransactions": "SHOW TRANSACTIONS (it lists other clients' queries)",
    "ShowSettings": "SHOW SETTINGS",
    "AdministrationCommand": "an administration command",
    "TransactionApply": "CALL { } IN TRANSACTIONS",
    "TransactionForeach": "CALL { } IN TRANSACTIONS",
    "RunQueryAt": "a query on another graph (USE)",
}

#: The refusal of a statement that writes (a ReadOnlyViolation, not a ForbiddenQuery).
WRITES = "this statement writes; pass --write (or write=True) to allow it"
_SCHEMA = ("Create", "Drop", "DoNothingIfExists")
_PROFILE = re.compile(r"\A\s*PROFILE\b", re.IGNORECASE)


def explain_text(query: str) -> str:
    """The statement that plans ``query`` without running it.

    ``EXPLAIN`` in front of an ``EXPLAIN`` is accepted by Neo4j; a leading ``PROFILE`` becomes
    ``EXPLAIN`` (the two cannot be combined). Anything else that confuses this fails to plan,
    and the query is refused with Neo4j's error.
    """
    if _PROFILE.match(query):
        return _PROFILE.sub("EXPLAIN", query, count=1)
    return "EXPLAIN " + query


def operators(plan: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """Every operator of a plan (``summary.plan``), the root first."""
    yield plan
    for child in plan.get("children") or ():
        yield from operators(child)


def operator_name(op: Mapping[str, Any]) -> str:
    """An operator's kind: ``Expand(All)@neo4j`` is ``Expand``."""
    name = str(op.get("operatorType", ""))
    return name.split("@", 1)[0].split("(", 1)[0]


def procedure_name(op: Mapping[str, Any]) -> str:
    """The procedure a ``ProcedureCall`` operator calls (from its signature in ``Details``)."""
    details = str((op.get("args") or {}).get("Details", ""))
    return details.split("(", 1)[0].strip()


def _details(op: Mapping[str, Any]) -> str:
    return str((op.get("args") or {}).get("Details", "")).lower()


def is_read_operator(name: str) -> bool:
    """True for an operator of a reading clause or an allowed SHOW command (by its kind)."""
    return name in READ_OPERATORS or name in SHOW_COMMANDS or bool(_LEAF_READ.search(name))


def loads_csv(plan: Mapping[str, Any] | None) -> bool:
    """True when the plan reads a CSV file or URL (LOAD CSV anywhere in it)."""
    return plan is not None and any(operator_name(op) == "LoadCSV" for op in operators(plan))


def read_only_refusal(
    query_type: str | None, plan: Mapping[str, Any] | None, user_functions: Collection[str] = ()
) -> str | None:
    """Why a planned query is not allowed as read-only, or ``None`` when it is.

    Args:
        query_type: ``summary.query_type`` of the ``EXPLAIN`` (``r``, ``w``, ``rw`` or ``s``).
        plan: ``summary.plan`` of the ``EXPLAIN``.
        user_functions: Lower-case names of the functions plugins add (refused when called).

    Returns:
        One line naming what was refused.
    """
    if query_type in ("w", "rw"):
        return WRITES
    if plan is None:
        return "the query has no plan to check"
    for op in operators(plan):
        name = operator_name(op)
        if name == "ProcedureCall":
            proc = procedure_name(op)
            if proc not in READ_PROCEDURES:
                return (
                    f"the procedure {proc} is not on the read-only allow-list "
                    "(db.labels, db.index.fulltext.queryNodes, ...; see docs/security.md)"
                )
        elif name in CLAUSES:
            return f"{CLAUSES[name]} is not allowed in a read-only query"
        elif name.startswith(_SCHEMA):
            return WRITES
        elif not is_read_operator(name):
            return f"the plan operator {name} is not on the read-only allow-list"
        details = _details(op)
        for fn in user_functions:
            if fn + "(" in details:
                return f"the plugin function {fn} is not allowed in a read-only query"
    if query_type not in ("r", "s"):
        return f"the query type {query_type!r} is not a read"
    return None
