"""CLI: context (a context pack under a token budget) and recommend (from access history)."""

from __future__ import annotations

import click

from recollect_graph.cli.common import (
    need,
    need_scope,
    open_rg,
    owner_option,
    scope_option,
    short,
    time_options,
)
from recollect_graph.cli.output import emit_json, handle_errors, json_option, table


@click.command("context")
@click.argument("query")
@click.option(
    "--budget",
    default=2000,
    show_default=True,
    type=click.IntRange(1, 1_000_000),
    help="Hard limit on the pack's tokens (the embedding model's tokenizer).",
)
@click.option("--no-ids", is_flag=True, help="Leave item ids out of the Markdown (saves tokens).")
@scope_option
@owner_option
@click.option("--mine", is_flag=True, help="Only entries and documents of --owner.")
@time_options
@json_option
@handle_errors
def context_cmd(
    query: str,
    budget: int,
    no_ids: bool,
    scope: str | None,
    owner: str | None,
    mine: bool,
    as_of: str | None,
    valid_at: str | None,
    as_json: bool,
) -> None:
    """A Markdown context pack for QUERY that never exceeds --budget tokens.

    Sections: Entries, Chunks, Entities, Relations, Related, each item cited ([E1], [C2]...).
    What did not fit is reported on stderr (or under "cut" with --json).

    \b
    Example:
      recollect-graph context "why did we pick Vite?" --scope app --budget 800
      recollect-graph context "who owned billing" --scope app --valid-at 2026-03-01
    """
    scope_id = need_scope(scope)
    owner_id = need(owner, "--owner", "RECOLLECT_OWNER") if mine else None
    with open_rg(as_json) as rg:
        pack = rg.context(
            query,
            scope_id=scope_id,
            budget_tokens=budget,
            owner_id=owner_id,
            ids=not no_ids,
            as_of=as_of,
            valid_at=valid_at,
        )
    if as_json:
        emit_json(pack.to_dict())
        return
    if pack.markdown:
        click.echo(pack.markdown)
    left = {s: len(v["left_out"]) for s, v in pack.cut.items() if isinstance(v, dict)}
    cut = ", ".join(f"{s} {n}" for s, n in left.items() if n) or "nothing"
    click.echo(f"{pack.tokens}/{pack.budget} tokens ({pack.tokenizer}); left out: {cut}", err=True)


@click.command("recommend")
@scope_option
@owner_option
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 1000))
@click.option(
    "--half-life",
    "half_life_days",
    default=7.0,
    show_default=True,
    type=click.FloatRange(0.01, 10_000),
    help="Days after which an access weighs half.",
)
@click.option("--everyone", is_flag=True, help="Use every owner's accesses, not only --owner's.")
@json_option
@handle_errors
def recommend_cmd(
    scope: str | None,
    owner: str | None,
    limit: int,
    half_life_days: float,
    everyone: bool,
    as_json: bool,
) -> None:
    """Unseen entries and documents close to what was viewed, searched or recalled recently.

    \b
    Example:
      recollect-graph recommend --scope app --owner kai --limit 5
    """
    scope_id = need_scope(scope)
    with open_rg(as_json) as rg:
        recs = rg.recommend(
            scope_id,
            owner_id=None if everyone else owner,
            limit=limit,
            half_life_days=half_life_days,
        )
    if as_json:
        emit_json(recs.to_dict())
        return
    if recs.items:
        click.echo(
            table(
                [
                    {
                        "score": r.score,
                        "kind": r.kind,
                        "id": r.id,
                        "title": short(r.title, 50),
                        "reason": short(r.reason, 90),
                    }
                    for r in recs
                ]
            )
        )
    click.echo(recs.reason, err=bool(recs.items))  # alone on stdout when there is no list


COMMANDS = [context_cmd, recommend_cmd]
