"""Node lookups by a dynamic label are planned by Neo4j 5.26 as a scan of every node.

The export/import statements therefore carry one branch per key label of the format's allow-list;
these tests keep the branches in step with the allow-list and keep dynamic labels out of node
patterns (where they would turn every lookup into a scan of the whole store). Neo4j 2026 seeks
the label's index for a dynamic label at run time, so a statement's Cypher 25 variant (``_c25``,
run only on 2026+ servers) may use one: it plans in milliseconds where the branched form takes
seconds.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from recollect_graph.db.queries import C25_SUFFIX, cypher, has_c25_variant
from recollect_graph.vocabulary import KEY_LABELS

CYPHER = Path(__file__).resolve().parents[2] / "cypher"
BRANCHED = {
    "transfer/import_nodes": KEY_LABELS,
    "transfer/import_rels": KEY_LABELS,
    "transfer/lookup": KEY_LABELS,
    "transfer/nodes_page": KEY_LABELS,
    "transfer/rels_page": KEY_LABELS,
    "stats/node": KEY_LABELS,
    "changes/locate": KEY_LABELS,
}
#: A node pattern with a dynamic label: ``(n:$(...)`` (relationship types are fine: they are
#: matched from a bound node).
_DYNAMIC_NODE = re.compile(r"\(\s*\w*\s*:\s*\$\(")


@pytest.mark.parametrize("name", sorted(BRANCHED))
def test_every_key_label_has_its_own_branch(name: str) -> None:
    text = (CYPHER / f"{name}.cypher").read_text()
    missing = [label for label in BRANCHED[name] if f"'{label}'" not in text]
    assert not missing, f"{name}.cypher has no branch for {missing}"


def test_no_node_pattern_uses_a_dynamic_label() -> None:
    offenders = [
        str(p.relative_to(CYPHER))
        for p in CYPHER.rglob("*.cypher")
        if not p.stem.endswith(C25_SUFFIX)
        and any(
            _DYNAMIC_NODE.search(line) and not line.lstrip().startswith("//")
            for line in p.read_text().splitlines()
        )
    ]
    assert not offenders, f"dynamic node labels (a scan of every node): {offenders}"


@pytest.mark.parametrize("name", sorted(n for n in BRANCHED if has_c25_variant(n)))
def test_a_dynamic_label_variant_takes_the_same_parameters_and_returns_the_same_columns(
    name: str,
) -> None:
    plain, new = cypher(name), cypher(name + C25_SUFFIX)
    assert new.text.startswith("CYPHER 25")
    assert new.params == plain.params  # the caller passes the same parameters to both

    def columns(text: str) -> list[str]:
        last = text[text.rindex("\nRETURN ") :]
        return re.findall(r"\bAS (\w+)", last)

    assert columns(new.text) == columns(plain.text)
    assert "Session" in new.text  # a Session is keyed by (scope_id, id): its own branch


def test_the_import_runs_its_dynamic_label_variants_on_neo4j_2026() -> None:
    assert {n for n in BRANCHED if has_c25_variant(n)} >= {
        "transfer/lookup",
        "transfer/import_nodes",
        "transfer/import_rels",
    }
