import re
from pathlib import Path

import pytest

from recollect_graph.db.queries import all_names, body_params, cypher, migrations, parse
from recollect_graph.errors import CypherFileError

NAMES = all_names()
#: The statements only tests and benchmarks run, served as ``testing/<name>`` (tests/helpers.py).
TEST_ONLY = sorted(
    f"testing/{p.stem}" for p in (Path(__file__).resolve().parents[1] / "cypher").glob("*.cypher")
)


def test_there_are_cypher_files() -> None:
    assert "schema/001_core" in NAMES
    assert "admin/show_indexes" in NAMES


@pytest.mark.parametrize("name", NAMES + TEST_ONLY)
def test_every_file_loads_and_its_params_match_its_header(name: str) -> None:
    q = cypher(name)
    assert q.purpose, f"{name} has an empty Purpose"
    assert q.returns, f"{name} has an empty Returns"
    assert q.body_params() == q.params


def test_every_name_the_code_asks_for_exists() -> None:
    import pathlib

    import recollect_graph

    root = pathlib.Path(recollect_graph.__file__).parent
    asked: set[str] = set()
    for py in root.rglob("*.py"):
        text = py.read_text()
        asked |= set(
            re.findall(r"""\.(?:read|write|autocommit|run)\(\s*"([a-z0-9_]+/[a-z0-9_/]+)\"""", text)
        )
    assert asked, "no named statements found in the code"
    missing = sorted(asked - set(NAMES))
    assert not missing, f"code asks for cypher files that do not exist: {missing}"


def test_migrations_are_ordered_and_idempotent() -> None:
    ms = migrations()
    assert [m.name for m in ms] == sorted(m.name for m in ms)
    for m in ms:
        for stmt in m.statements():
            ok = "IF NOT EXISTS" in stmt or (stmt.startswith("DROP") and "IF EXISTS" in stmt)
            assert ok, f"{m.name}: not idempotent: {stmt[:60]}"


def test_schema_has_vector_and_fulltext_indexes_and_constraints() -> None:
    text = cypher("schema/001_core").text
    for label in ("Entry", "Chunk", "Entity", "Topic", "Session"):
        assert re.search(rf"CREATE VECTOR INDEX \w+ IF NOT EXISTS FOR \(n:{label}\)", text)
    assert text.count("CREATE FULLTEXT INDEX") == 4
    assert "`vector.similarity_function`: 'cosine'" in text
    assert "$dimensions" in text


def test_header_mismatch_is_reported() -> None:
    with pytest.raises(CypherFileError, match="undeclared"):
        parse("x/y", "// Purpose: p\n// Params: $a\n// Returns: n\nRETURN $a, $b")
    with pytest.raises(CypherFileError, match="unused"):
        parse("x/y", "// Purpose: p\n// Params: $a, $c\n// Returns: n\nRETURN $a")
    with pytest.raises(CypherFileError, match="Returns"):
        parse("x/y", "// Purpose: p\n// Params: none\nRETURN 1")


def test_params_in_strings_and_comments_are_not_params() -> None:
    assert body_params("RETURN '$nope' AS a, $yes // $comment\n") == {"yes"}
    assert body_params("MATCH (n:$(label)) RETURN n") == frozenset()


@pytest.mark.parametrize(
    "bad", ["../etc/passwd", "admin/../x", "Admin/Show", "admin/show indexes", ""]
)
def test_loader_refuses_names_outside_the_folder(bad: str) -> None:
    with pytest.raises(CypherFileError):
        cypher(bad)


def test_missing_file_is_a_clear_error() -> None:
    with pytest.raises(CypherFileError, match="does not exist"):
        cypher("admin/no_such_query")


def test_test_only_statements_are_served_from_tests_not_the_package() -> None:
    assert TEST_ONLY, "tests/cypher/ has no statements"
    assert not [n for n in NAMES if n.startswith("testing/")]
    assert cypher(TEST_ONLY[0]).text


def test_register_root_refuses_a_bad_prefix_or_folder(tmp_path: Path) -> None:
    from recollect_graph.db.queries import register_root

    with pytest.raises(CypherFileError, match="prefix"):
        register_root("Bad/Prefix", tmp_path)
    with pytest.raises(CypherFileError, match="no such folder"):
        register_root("extra", tmp_path / "missing")
