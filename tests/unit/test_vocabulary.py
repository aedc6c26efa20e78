"""The graph's vocabulary (:mod:`recollect_graph.vocabulary`) is the one the code uses.

No database: the statements under ``cypher/`` are parsed (comments and strings removed) for the
labels and relationship types they write or match, the schema migrations for their constraints
and indexes, :mod:`recollect_graph.ogm` for its classes and the package's Python for the
relationship types it passes to dynamic-type statements.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from neomodel import RelationshipDefinition, StructuredNode

from recollect_graph import ogm, vocabulary
from recollect_graph.services.memories.service import LEGACY_RELATIONS
from recollect_graph.services.transfer import format as transfer_format
from recollect_graph.services.transfer import job as transfer_job
from recollect_graph.vocabulary import (
    ALL_LABELS,
    CORE_VECTOR_LABELS,
    FULLTEXT_INDEXES,
    KEY_LABELS,
    KNOWLEDGE_REL_TYPES,
    NODE_LABELS,
    REL_TYPES,
    RELATIONS,
    SCHEMA_LABELS,
    SCOPED_LABELS,
    STRUCTURAL_REL_TYPES,
    SUPERSEDE_REL_TYPES,
    TYPE_LABELS,
    UNIQUE_KEYS,
    VECTOR_LABELS,
)

ROOT = Path(__file__).resolve().parents[2]
CYPHER = ROOT / "cypher"
PACKAGE = ROOT / "recollect_graph"
STYLE = PACKAGE / "db" / "launcher" / "src" / "main" / "resources" / "guides" / "style.grass"

_NAME = r"[A-Za-z_]\w*"
#: ``[r:TYPE|OTHER*1..3`` (a dynamic ``$(...)`` type has no name to check).
_REL = re.compile(rf"\[\s*(?:{_NAME})?\s*:\s*(!?{_NAME}(?:\s*[|&:]\s*!?{_NAME})*)")
#: ``(n:Label:Other``, ``(:Label|Other``, ``n:Label`` in WHERE/SET/CASE.
#: (outside a node pattern no space around the colon: ``kind: CASE`` is a map entry).
_LABEL = re.compile(
    rf"(?:\(\s*(?:{_NAME})?\s*:\s*|\b{_NAME}:)(!?[A-Z]\w*(?:\s*[|&:]\s*!?[A-Z]\w*)*)"
)


def _code(text: str) -> str:
    """Cypher without comments, with string literals emptied and backtick names unquoted."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif c in "'\"`":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i + 1 : j] if c == "`" else "''")
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


@cache
def _statements() -> dict[str, str]:
    return {str(p.relative_to(CYPHER)): _code(p.read_text()) for p in CYPHER.rglob("*.cypher")}


def _names(group: str) -> set[str]:
    return set(re.findall(_NAME, group))


def _rel_types(code: str) -> set[str]:
    return {t for m in _REL.finditer(code) for t in _names(m.group(1))}


def _labels(code: str) -> set[str]:
    without_rels = _REL.sub("[", code)
    return {label for m in _LABEL.finditer(without_rels) for label in _names(m.group(1))}


def _cypher_labels() -> dict[str, set[str]]:
    return {name: _labels(code) for name, code in _statements().items()}


def _cypher_rel_types() -> dict[str, set[str]]:
    return {name: _rel_types(code) for name, code in _statements().items()}


# -- the parser itself --------------------------------------------------------------------------


def test_the_parser_reads_labels_and_types_and_skips_comments_and_strings() -> None:
    code = _code(
        "// (:Commented)-[:COMMENTED]->()\n"
        "MATCH (a:Entry:Turn {title: '(:InString)'})-[r:SUPPORTS|`CAUSES`*1..2]->(:Chunk)\n"
        'WHERE NOT a:Session AND b.kind = "[:IN_STRING]" SET a:Topic\n'
        "MERGE (a)-[x:$($rel_type)]->(b) /* (:Block) */ RETURN {id: a.id, n: $n}"
    )
    assert _labels(code) == {"Entry", "Turn", "Chunk", "Session", "Topic"}
    assert _rel_types(code) == {"SUPPORTS", "CAUSES"}


# -- the vocabulary is consistent ---------------------------------------------------------------


def test_the_lists_have_no_duplicates() -> None:
    for name in dir(vocabulary):
        value = getattr(vocabulary, name)
        if name.isupper() and isinstance(value, tuple):
            assert len(set(value)) == len(value), f"{name} repeats a name"


def test_labels_and_types() -> None:
    assert set(SCOPED_LABELS) == NODE_LABELS
    assert NODE_LABELS.isdisjoint(SCHEMA_LABELS)
    assert set(UNIQUE_KEYS) == ALL_LABELS
    assert tuple(r.upper() for r in RELATIONS) == KNOWLEDGE_REL_TYPES
    assert set(KNOWLEDGE_REL_TYPES).isdisjoint(STRUCTURAL_REL_TYPES)
    assert set(KNOWLEDGE_REL_TYPES) | set(STRUCTURAL_REL_TYPES) == REL_TYPES
    assert set(SUPERSEDE_REL_TYPES) <= set(KNOWLEDGE_REL_TYPES)
    assert set(CORE_VECTOR_LABELS) <= set(VECTOR_LABELS) <= NODE_LABELS
    assert all(r == r.upper() for r in REL_TYPES)


# -- the statements ----------------------------------------------------------------------------


def test_every_label_in_a_statement_is_in_the_vocabulary() -> None:
    unknown = {n: sorted(ls - ALL_LABELS) for n, ls in _cypher_labels().items() if ls - ALL_LABELS}
    assert not unknown, f"labels not in recollect_graph.vocabulary: {unknown}"


def test_every_relationship_type_in_a_statement_is_in_the_vocabulary() -> None:
    unknown = {n: sorted(ts - REL_TYPES) for n, ts in _cypher_rel_types().items() if ts - REL_TYPES}
    assert not unknown, f"relationship types not in recollect_graph.vocabulary: {unknown}"


def test_every_label_of_the_vocabulary_is_used_by_a_statement() -> None:
    used = set().union(*_cypher_labels().values())
    assert sorted(ALL_LABELS - used) == []


def test_every_relationship_type_of_the_vocabulary_is_used() -> None:
    """By a statement, as a knowledge edge (a dynamic type), or by the neomodel classes."""
    used = set().union(*_cypher_rel_types().values()) | set(KNOWLEDGE_REL_TYPES) | _ogm_rel_types()
    assert sorted(REL_TYPES - used) == []


# -- the schema --------------------------------------------------------------------------------

_CONSTRAINT = re.compile(
    rf"CREATE CONSTRAINT ({_NAME}) IF NOT EXISTS FOR \(\s*(\w+)\s*:\s*({_NAME})\s*\)\s*REQUIRE"
    r"\s*\(?([^)]*?)\)?\s+IS UNIQUE",
)
_DROP = re.compile(rf"DROP CONSTRAINT ({_NAME})")
_INDEX = re.compile(
    rf"CREATE (?:(VECTOR|FULLTEXT) )?INDEX ({_NAME}) IF NOT EXISTS FOR \(\s*\w+\s*:\s*({_NAME})"
)


def _migrations() -> list[tuple[str, str]]:
    return sorted((n, c) for n, c in _statements().items() if n.startswith("schema/"))


def _constraints() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Constraint name -> (label, unique properties), after every migration in order."""
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for _name, code in _migrations():
        for stmt in code.split(";"):
            if m := _DROP.search(stmt):
                out.pop(m.group(1), None)
            if m := _CONSTRAINT.search(stmt):
                var = m.group(2)
                props = tuple(p.strip().removeprefix(f"{var}.") for p in m.group(4).split(","))
                out[m.group(1)] = (m.group(3), props)
    return out


def _indexes() -> Iterator[tuple[str, str, str, str]]:
    """(migration, kind: RANGE, VECTOR or FULLTEXT, name, label) of every index."""
    for name, code in _migrations():
        for m in _INDEX.finditer(code):
            yield name, m.group(1) or "RANGE", m.group(2), m.group(3)


def test_every_constraint_and_index_names_a_vocabulary_label() -> None:
    labels = {label for label, _ in _constraints().values()} | {i[3] for i in _indexes()}
    assert labels and sorted(labels - ALL_LABELS) == []


def test_every_label_has_its_uniqueness_constraint() -> None:
    have = set(_constraints().values())
    missing = {label: key for label, key in UNIQUE_KEYS.items() if (label, key) not in have}
    assert not missing, f"no uniqueness constraint on {missing}"


def test_vector_and_fulltext_indexes() -> None:
    indexes = list(_indexes())
    vector = {(name, label) for _m, kind, name, label in indexes if kind == "VECTOR"}
    assert vector == {(f"{label.lower()}_embedding", label) for label in VECTOR_LABELS}
    core = {label for m, kind, _n, label in indexes if kind == "VECTOR" and "001_" in m}
    assert core == set(CORE_VECTOR_LABELS)
    fulltext = [name for _m, kind, name, _label in indexes if kind == "FULLTEXT"]
    assert sorted(fulltext) == sorted(FULLTEXT_INDEXES)


# -- the export format, the neomodel classes, the Browser style --------------------------------


def test_the_export_format_allows_exactly_the_vocabulary() -> None:
    assert transfer_format.KEY_LABELS == KEY_LABELS
    assert transfer_format.NODE_LABELS == NODE_LABELS
    assert transfer_job.KEY_LABELS == KEY_LABELS
    assert transfer_job.REL_TYPES == REL_TYPES
    for label in KEY_LABELS:
        assert transfer_format.key_label([label]) == label
    assert transfer_format.key_label(["Turn", "Entry"]) == "Entry"


def _ogm_classes() -> list[type[StructuredNode]]:
    return [
        c
        for c in vars(ogm).values()
        if isinstance(c, type)
        and issubclass(c, StructuredNode)
        and hasattr(c, "__label__")
        and c.__module__ == ogm.__name__
    ]


def _ogm_rel_types(cls: type[StructuredNode] | None = None) -> set[str]:
    out = set()
    for c in [cls] if cls else _ogm_classes():
        for v in vars(c).values():
            if isinstance(v, RelationshipDefinition):
                out.add(str(v.definition["relation_type"]))
    return out


def test_the_neomodel_classes_cover_the_vocabulary() -> None:
    labels = {c.__label__ for c in _ogm_classes()}
    assert labels == NODE_LABELS
    assert _ogm_rel_types() <= REL_TYPES
    assert {t for t in _ogm_rel_types(ogm.Entry) if t in KNOWLEDGE_REL_TYPES} == set(
        KNOWLEDGE_REL_TYPES
    )
    assert "Entry" in ogm.Turn.inherited_labels()


def test_the_browser_style_names_vocabulary_labels_and_types() -> None:
    text = STYLE.read_text()
    labels = set(re.findall(rf"^node\.({_NAME})", text, re.M))
    types = set(re.findall(rf"^relationship\.({_NAME})", text, re.M))
    assert labels and labels <= ALL_LABELS | TYPE_LABELS
    assert {"Commit", "Decision", "Problem", "Section"} <= labels  # entry types coloured apart
    assert types <= REL_TYPES


# -- Python allow-lists --------------------------------------------------------------------------


def _string_tuples(tree: ast.AST) -> dict[str, set[str]]:
    """Names bound by ``for name in ("A", "B")`` to the strings they take."""
    out: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.For)
            and isinstance(node.target, ast.Name)
            and isinstance(node.iter, ast.Tuple | ast.List)
            and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.iter.elts
            )
        ):
            values = {str(e.value) for e in node.iter.elts if isinstance(e, ast.Constant)}
            out.setdefault(node.target.id, set()).update(values)
    return out


def _passed_rel_types() -> dict[str, set[str]]:
    """The literal relationship types the package passes as ``rel_type=`` (or as ``"rel"``)."""
    found: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text())
        loops = _string_tuples(tree)
        values: set[str] = set()
        for node in ast.walk(tree):
            args: list[ast.expr] = []
            if isinstance(node, ast.Call):
                args = [k.value for k in node.keywords if k.arg == "rel_type"]
            elif isinstance(node, ast.Dict):
                args = [
                    v
                    for k, v in zip(node.keys, node.values, strict=True)
                    if isinstance(k, ast.Constant) and k.value == "rel"
                ]
            for a in args:
                if isinstance(a, ast.Constant) and isinstance(a.value, str):
                    values.add(a.value)
                elif isinstance(a, ast.Name) and a.id in loops:
                    values |= loops[a.id]
        if values:
            found[str(path.relative_to(ROOT))] = values
    return found


def test_relationship_types_passed_to_dynamic_statements_are_knowledge_edges() -> None:
    passed = _passed_rel_types()
    assert passed, "the scan found no rel_type= argument"
    bad = {p: sorted(v - set(KNOWLEDGE_REL_TYPES)) for p, v in passed.items()}
    assert not {p: v for p, v in bad.items() if v}


def test_legacy_relation_names_map_to_relations() -> None:
    assert set(LEGACY_RELATIONS.values()) <= set(RELATIONS)
