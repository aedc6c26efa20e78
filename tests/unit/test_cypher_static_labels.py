"""Node lookups by a dynamic label are planned by Neo4j 5.26 as a scan of every node.

The export/import statements therefore carry one branch per key label of the format's allow-list;
these tests keep the branches in step with the allow-list and keep dynamic labels out of node
patterns (where they would turn every lookup into a scan of the whole store).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

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
        if any(
            _DYNAMIC_NODE.search(line) and not line.lstrip().startswith("//")
            for line in p.read_text().splitlines()
        )
    ]
    assert not offenders, f"dynamic node labels (a scan of every node): {offenders}"
