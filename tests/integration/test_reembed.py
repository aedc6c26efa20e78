"""Re-embed after a model change: one scope or all, resumable, other scopes untouched.

The "old model" is made by hand: the scope's vectors are overwritten with a constant vector
recorded as another model's, which is what a graph built with another model looks like to this
one. Re-embedding must put back the vectors the configured model gives for each text.
"""

from __future__ import annotations

import json
import math
import uuid

import pytest
from click.testing import CliRunner

from recollect_graph import Recollect
from recollect_graph.cli.main import cli
from recollect_graph.settings import Settings

OLD = "old-model-for-the-test"


VECTOR_LABELS = "(n:Entry OR n:Chunk OR n:Entity OR n:Document OR n:Topic OR n:Session)"


def _age(rg: Recollect, scope_id: str) -> None:
    """Make a scope's vectors look embedded by another model."""
    rg.query(
        f"MATCH (n) WHERE n.scope_id = $s AND {VECTOR_LABELS} AND n.embedding IS NOT NULL "
        "SET n.embedding = [i IN range(1, 384) | 0.05], n.embedding_model = $m",
        {"s": scope_id, "m": OLD},
        write=True,
    )


def _models(rg: Recollect, scope_id: str) -> set[str]:
    rows = rg.query(
        f"MATCH (n) WHERE n.scope_id = $s AND {VECTOR_LABELS} AND n.embedding IS NOT NULL "
        "RETURN DISTINCT n.embedding_model AS m",
        {"s": scope_id},
    )
    return {r["m"] for r in rows}


def _cos(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)))


def _fill(rg: Recollect, scope_id: str, n: int) -> list[str]:
    services = ["billing", "search", "export", "mailer", "auth", "ledger"][:n]
    texts = [f"Runbook {i}: restart the {w} worker when its queue backs up" for i, w in
             enumerate(services)]  # fmt: skip
    items = [{"content": t} for t in texts]
    return [e.id for e in rg.remember_many(items, scope_id=scope_id, owner_id="kai")]


def test_one_scope_gets_the_models_vectors_and_the_other_keeps_its_own(rg: Recollect) -> None:
    home, away = f"re-{uuid.uuid4().hex[:8]}", f"re-{uuid.uuid4().hex[:8]}"
    ids = _fill(rg, home, 3)
    _fill(rg, away, 2)
    rg.documents.ingest(
        "runbook", "# Queues\n\nThe export worker drains the queue nightly.", owner_id="kai",
        scope_id=home,
    )  # fmt: skip
    _age(rg, home)
    _age(rg, away)
    pending = rg.reembedder.pending(home)
    assert pending["entries"] == 3 and pending["chunks"] >= 1 and pending["documents"] == 1

    seen: list[tuple[int, int]] = []
    report = rg.reembed(home, batch_size=2, progress=lambda d, t: seen.append((d, t)))
    assert (report.entries, report.chunks) == (3, pending["chunks"])
    assert report.indexes_rebuilt == [] and report.scope_id == home
    assert seen[-1][0] == seen[-1][1] == sum(pending.values())
    assert _models(rg, home) == {rg.embedder.model_id}
    assert _models(rg, away) == {OLD}  # untouched
    got = rg.get(ids[0], scope_id=home, touch=False)
    vec = rg.query("MATCH (e:Entry {id: $id}) RETURN e.embedding AS v", {"id": ids[0]})[0]["v"]
    assert _cos(vec, rg.embedder.embed_one(got.content)) > 0.99
    hits = rg.search("restart the billing worker", scope_id=home, limit=1)
    assert hits and hits[0].entry.id == ids[0]
    again = rg.reembed(home)  # idempotent: nothing is left
    assert (again.entries, again.chunks) == (0, 0)
    rg.reembed(away)
    assert _models(rg, away) == {rg.embedder.model_id}


def test_a_re_embed_cut_short_resumes_where_it_stopped(rg: Recollect) -> None:
    scope = f"re-{uuid.uuid4().hex[:8]}"
    _fill(rg, scope, 5)
    _age(rg, scope)

    def crash(done: int, _total: int) -> None:
        raise KeyboardInterrupt  # the first batch of 2 is committed, then the run dies

    with pytest.raises(KeyboardInterrupt):
        rg.reembed(scope, batch_size=2, progress=crash)
    assert rg.reembedder.pending(scope)["entries"] == 3
    report = rg.reembed(scope, batch_size=2)
    assert report.entries == 3 and not any(rg.reembedder.pending(scope).values())


def test_reembed_command_reports_json_and_refuses_a_blank_scope(cli_env: Settings) -> None:
    scope = f"re-{uuid.uuid4().hex[:8]}"
    with Recollect.open(cli_env) as rg:
        _fill(rg, scope, 2)
        _age(rg, scope)
    r = CliRunner().invoke(cli, ["reembed", "--scope", scope, "--json"])
    assert r.exit_code == 0, (r.stdout, r.stderr)
    out = json.loads(r.stdout)
    assert (out["entries"], out["chunks"], out["scope_id"]) == (2, 0, scope)
    bad = CliRunner().invoke(cli, ["reembed", "--scope", "  ", "--json"])
    assert bad.exit_code == 1 and json.loads(bad.stdout)["error"] == "invalid_input"


def _vectors(rg: Recollect, scope_id: str) -> dict[str, list[float]]:
    rows = rg.query(
        f"MATCH (n) WHERE n.scope_id = $s AND {VECTOR_LABELS} AND n.embedding IS NOT NULL "
        "RETURN labels(n)[0] + ':' + n.id AS k, n.embedding AS v",
        {"s": scope_id},
    )
    return {r["k"]: r["v"] for r in rows}


def test_every_vector_kind_comes_back_to_what_the_model_gives(rg: Recollect) -> None:
    """Turns, document entities, documents, topics and sessions too, not only entries/chunks."""
    scope = f"re-{uuid.uuid4().hex[:8]}"
    for i, text in enumerate(
        [
            "The billing service stores invoices in PostgreSQL.",
            "Invoices of the billing service are partitioned by month in PostgreSQL.",
            "The billing service retries failed invoice payments nightly.",
        ]
    ):
        rg.remember(text, scope_id=scope, owner_id="kai", source_id=f"n{i}")
    rg.documents.ingest(
        "Billing",
        "# Billing\n\nAna Souza moved the billing service from RabbitMQ to Kafka.\n\n"
        "## Storage\n\nInvoices are stored in PostgreSQL by the billing service.\n",
        owner_id="kai",
        scope_id=scope,
    )
    turns = [
        {"id": "t1", "role": "user", "speaker": "kai", "text": "Why do invoice payments fail?"},
        {"id": "t2", "role": "assistant", "speaker": "bot", "text": "The card gateway timed out."},
    ]
    rg.sessions.add_turns("s-billing", turns, scope_id=scope, owner_id="kai")
    rg.topics.build(scope, min_size=2)
    before = _vectors(rg, scope)
    kinds = {k.split(":")[0] for k in before}
    assert {"Entry", "Chunk", "Entity", "Document", "Topic", "Session"} <= kinds
    _age(rg, scope)
    pending = rg.reembedder.pending(scope)
    assert all(pending.values()), pending

    report = rg.reembed(scope, batch_size=3)
    assert not any(rg.reembedder.pending(scope).values())
    assert (report.documents, report.sessions) == (1, 1) and report.entities >= 2
    assert report.topics == sum(1 for k in before if k.startswith("Topic:"))
    after = _vectors(rg, scope)
    assert after.keys() == before.keys()
    worst = min((_cos(before[k], after[k]), k) for k in before)
    assert worst[0] > 0.99, worst  # int8 ONNX quantises per batch: close, not bit-equal
    assert _models(rg, scope) == {rg.embedder.model_id}
    hits = rg.search("why do invoice payments fail", scope_id=scope, limit=3)
    assert any(h.entry.entry_type == "conversation_turn" for h in hits)
