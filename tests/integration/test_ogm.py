"""neomodel reads what the library wrote through the driver."""

from __future__ import annotations

from recollect_graph import Recollect, ogm


def test_neomodel_reads_driver_writes(rg: Recollect, scope_id: str) -> None:
    vec = rg.embedder.embed_one("Kai owns billing")
    rg.query(
        "CREATE (a:Entry {id: $a, scope_id: $s, title: 'billing owner', content: 'Kai owns billing', "
        "tags: ['team', 'billing'], embedding: $v, created_at: datetime('2026-11-01T10:00:00Z')})"
        "-[:SUPPORTS {weight: 0.8, reason: 'same fact', origin: 'test'}]->"
        "(b:Entry {id: $b, scope_id: $s, content: 'billing is Kai'})",
        {"a": f"{scope_id}-a", "b": f"{scope_id}-b", "s": scope_id, "v": vec},
        write=True,
    )
    ogm.use(rg)
    entry = ogm.Entry.nodes.get(uid=f"{scope_id}-a")
    assert entry.title == "billing owner"
    assert entry.tags == ["team", "billing"]
    assert len(entry.embedding) == 384
    assert entry.created_at.year == 2026
    target = entry.supports.single()
    assert target.uid == f"{scope_id}-b"
    edge = entry.supports.relationship(target)
    assert edge.weight == 0.8 and edge.reason == "same fact"
    assert {e.uid for e in ogm.Entry.nodes.filter(scope_id=scope_id)} == {
        f"{scope_id}-a",
        f"{scope_id}-b",
    }
