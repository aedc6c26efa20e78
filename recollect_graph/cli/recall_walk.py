"""The interactive side of ``recollect-graph recall``: walking candidates, asking probes.

On a terminal, recall shows one candidate at a time (the Anamnesis protocol): Recognize it,
Refine with a probe's answer, or Reorient with another description.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from recollect_graph.cli.common import short
from recollect_graph.errors import InvalidInput

if TYPE_CHECKING:
    from recollect_graph.facade import Recollect
    from recollect_graph.models import RecallCandidate, RecallProbe, RecallResult


def print_recall(r: RecallResult) -> None:
    """A recall result as text: the prose of the best candidate and a line for each other."""
    click.echo(f"({r.input_type} -> {r.track} track, attempt {r.attempt})")
    if r.candidates:
        click.echo(r.prose)
        for c in r.candidates[1:]:
            click.echo(
                f"  also: {c.session_id} ({c.confidence}, {c.score:.2f}) "
                f"{short(c.topic or c.fingerprint, 60)}"
            )
    else:
        click.echo(r.prose)


def _ask_probe(probes: list[RecallProbe]) -> str:
    options: list[str] = []
    for p in probes:
        click.echo(f"{p.dimension}: {p.question}")
        for o in p.options:
            options.append(o)
            click.echo(f"  {len(options)}. {o}")
    answer = str(click.prompt("Pick a number or describe what you remember", type=str)).strip()
    if answer.isdigit() and 1 <= int(answer) <= len(options):
        return options[int(answer) - 1].split(":")[0].split(" (")[0]
    if not answer:
        raise InvalidInput("no hint given")
    return answer


def interactive_recall(
    rg: Recollect,
    text: str,
    scope_id: str,
    owner_id: str | None,
    hints: list[str],
    attempt: int,
    max_attempts: int,
    limit: int,
    when: dict[str, str | None],
) -> None:
    """Walk the candidates one at a time: recognize one, refine with a probe, or reorient.

    Each refinement or new description is another attempt, up to ``max_attempts``.
    """
    from recollect_graph.models import RecallCandidate

    while attempt <= max_attempts:
        r = rg.recall(
            text,
            scope_id=scope_id,
            attempt=attempt,
            hints=hints,
            max_attempts=max_attempts,
            limit=limit,
            owner_id=owner_id,
            **when,
        )
        if r.null_match:
            click.echo(r.prose)
            return
        if not r.candidates:
            click.echo("Nothing matched yet.")
            hints.append(_ask_probe(r.probes))
            attempt += 1
            continue
        if r.single_obvious:
            click.echo(r.prose)
            return
        choice = _walk(rg, r.candidates)
        if isinstance(choice, RecallCandidate):
            click.echo(f"Recognized {choice.session_id}.")
            if choice.resumption_hint:
                click.echo(f"Resume: {choice.resumption_hint}")
            return
        if choice == "quit":
            return
        if choice == "refine":
            hints.append(_ask_probe(rg.recall_probes(text, scope_id=scope_id)))
        else:
            text = str(click.prompt("Describe it another way", type=str))
            hints = []
        attempt += 1
    click.echo("No more attempts; the best candidate was shown above.")


def _walk(rg: Recollect, cands: list[RecallCandidate]) -> RecallCandidate | str:
    for i, c in enumerate(cands, 1):
        click.echo(f"\nCandidate {i} of {len(cands)}:\n{rg.recaller.prose(c)}")
        key = click.prompt(
            "[r]ecognize, [n]ext, re[f]ine, re[o]rient, [q]uit",
            type=click.Choice(["r", "n", "f", "o", "q"]),
            default="r" if i == 1 else "n",
        )
        if key == "r":
            return c
        if key in ("f", "o", "q"):
            return {"f": "refine", "o": "reorient", "q": "quit"}[key]
    return "refine"
