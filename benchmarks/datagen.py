"""Realistic-looking engineering knowledge for benchmarks: varied sentences, tags, lengths."""

from __future__ import annotations

import random

SERVICES = [
    "billing",
    "checkout",
    "auth",
    "search",
    "notifications",
    "inventory",
    "payments",
    "analytics",
    "gateway",
    "scheduler",
    "ledger",
    "exports",
    "onboarding",
    "reporting",
]
PEOPLE = ["Kai", "Ana", "Ravi", "Mia", "Tomas", "Lena", "Omar", "Yuki", "Sara", "Ben"]
TOOLS = [
    "Postgres",
    "Redis",
    "Kafka",
    "Vite",
    "webpack",
    "Terraform",
    "Kubernetes",
    "nginx",
    "Stripe",
    "Sentry",
    "Grafana",
    "Airflow",
    "Elasticsearch",
    "RabbitMQ",
    "S3",
]
EVENTS = [
    "timed out",
    "ran out of memory",
    "deadlocked",
    "returned 502s",
    "lost messages",
    "doubled its latency",
    "crashed on startup",
    "leaked connections",
    "filled the disk",
]
DECISIONS = [
    "moved from {a} to {b}",
    "decided to keep {a} instead of {b}",
    "replaced {a} with {b} for the {s} service",
    "stopped using {a} in {s}",
]
TEMPLATES = [
    "The {s} service {e} after the {t} upgrade; {p} rolled it back.",
    "{p} is on call for {s} this week and owns the {t} migration.",
    "We {d} because builds were too slow.",
    "Incident: {s} {e} at peak traffic. Root cause was a misconfigured {t} pool.",
    "Runbook: to restart {s}, drain the {t} consumers first, then redeploy.",
    "{p} prefers {t} for {s} because it is simpler to operate.",
    "The {s} team {d}. The change shipped on a Tuesday.",
    "Known issue: {s} {e} when {t} is under heavy load. Ticket {k}.",
    "Decision record {k}: {s} will use {t} for caching; revisit next quarter.",
    "{p} found that {s} {e} because the {t} client retries without backoff.",
]
TAGS = [
    "incident",
    "decision",
    "runbook",
    "oncall",
    "perf",
    "infra",
    "frontend",
    "backend",
    "security",
    "data",
    "ci",
    "release",
]


def sentence(rng: random.Random) -> str:
    a, b = rng.sample(TOOLS, 2)
    s = rng.choice(SERVICES)
    return rng.choice(TEMPLATES).format(
        s=s,
        e=rng.choice(EVENTS),
        t=rng.choice(TOOLS),
        p=rng.choice(PEOPLE),
        d=rng.choice(DECISIONS).format(a=a, b=b, s=s),
        k=f"OPS-{rng.randint(100, 99999)}",
    )


def text(rng: random.Random) -> str:
    """One to four sentences."""
    return " ".join(sentence(rng) for _ in range(rng.choice([1, 1, 2, 2, 3, 4])))


def items(n: int, seed: int = 7) -> list[dict[str, object]]:
    """``n`` remember items with tags."""
    rng = random.Random(seed)
    return [{"content": text(rng), "tags": rng.sample(TAGS, rng.randint(0, 3))} for _ in range(n)]


def queries(n: int, seed: int = 11) -> list[str]:
    """Questions in other words than the stored text."""
    rng = random.Random(seed)
    forms = [
        "why did {s} fail under load?",
        "who owns the {t} migration?",
        "which tool does {s} use for caching?",
        "how do I restart the {s} service safely?",
        "what went wrong with {t} in {s}?",
        "{s} outage root cause",
        "OPS-{k}",
        "who is on call for {s}?",
        "why did we move away from {t}?",
    ]
    return [
        rng.choice(forms).format(
            s=rng.choice(SERVICES), t=rng.choice(TOOLS), k=rng.randint(100, 99999)
        )
        for _ in range(n)
    ]
