"""Secret redaction: applied to everything a learner extracts, before anything is stored.

Covers credentials in shell commands (``export GITHUB_TOKEN=...``, ``--password=...``,
``mysql -psecret``, ``curl -u user:pass``, ``Authorization:`` headers, passwords in URLs), the
well-known token formats (GitHub, GitLab, Slack, AWS, OpenAI, Stripe, Google, npm, JWTs, private
key blocks) and long random-looking strings. A secret becomes ``[REDACTED]``.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

MASK = "[REDACTED]"

_SECRET_NAME = (
    r"(?:\w*?(?:TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY"
    r"|CREDENTIALS?)\w*|\w+_(?:KEY|PASS|PWD|AUTH)|PASS|AUTH)"
)
_VALUE = r"(?:\"[^\"]*\"|'[^']*'|[^\s;&|]+)"

_RULES: list[tuple[re.Pattern[str], str]] = [
    # private key blocks
    (
        re.compile(
            r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)", re.S
        ),
        MASK,
    ),
    # NAME=value where NAME says it is a credential (export, env prefix, set, setenv)
    (
        re.compile(rf"(?i)(?<![\w$])({_SECRET_NAME})(\s*=\s*){_VALUE}"),
        rf"\1\2{MASK}",
    ),
    (re.compile(rf"(?i)\b(setenv\s+{_SECRET_NAME}\s+){_VALUE}"), rf"\1{MASK}"),
    # --password=x, --token x, --api-key x, ...
    (
        re.compile(
            r"(?i)((?<![\w-])--?(?:password|passwd|pass|pw|token|secret|api[-_]?key|access[-_]?key"
            r"|auth[-_]?token|client[-_]?secret|private[-_]?key|passphrase)(?:=|\s+))" + _VALUE
        ),
        rf"\1{MASK}",
    ),
    # mysql -psecret / -p secret is a prompt only without a value glued on
    (re.compile(r"(\bmysql\w*\b[^|;&\n]*?\s-p)(?!\s)(\S+)"), rf"\1{MASK}"),
    (re.compile(r"(\bsshpass\s+-p\s*)(\S+)"), rf"\1{MASK}"),
    # curl -u user:pass, --user user:pass
    (re.compile(r"((?:\s-u|--user)(?:=|\s+)['\"]?[^\s:'\"]+:)[^\s'\"]+"), rf"\1{MASK}"),
    # Authorization / token headers
    (
        re.compile(
            r"(?i)((?:authorization|proxy-authorization|x-api-key|api-key|private-token"
            r"|x-auth-token|cookie)\s*:\s*)(?:(?:bearer|basic|token)\s+)?[^\s'\"]+"
        ),
        rf"\1{MASK}",
    ),
    (re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/=-]{8,}"), rf"\1{MASK}"),
    # scheme://user:password@host
    (re.compile(r"(\b[a-z][a-z0-9+.-]*://[^/\s:@]+:)[^/\s@]+(@)"), rf"\1{MASK}\2"),
    # well-known token formats
    (
        re.compile(
            r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,}|glpat-[A-Za-z0-9_-]{20,}"
            r"|xox[abposr]-[A-Za-z0-9-]{10,}|(?:AKIA|ASIA)[0-9A-Z]{16}"
            r"|sk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}|[rsp]k_(?:live|test)_[A-Za-z0-9]{16,}"
            r"|AIza[0-9A-Za-z_-]{35}|npm_[A-Za-z0-9]{36}|hf_[A-Za-z0-9]{30,})"
        ),
        MASK,
    ),
    (re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"), MASK),
]
_CANDIDATE = re.compile(r"[A-Za-z0-9_+=-]{32,}")


def _entropy(s: str) -> float:
    counts = Counter(s)
    return -sum(c / len(s) * math.log2(c / len(s)) for c in counts.values())


def _random_looking(m: re.Match[str]) -> str:
    s = m.group(0)
    if (
        any(c.isupper() for c in s)
        and any(c.islower() for c in s)
        and any(c.isdigit() for c in s)
        and _entropy(s) >= 4.0
    ):
        return MASK
    return s


def redact(text: str) -> str:
    """``text`` with every secret replaced by ``[REDACTED]``.

    Example:
        >>> redact("export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 && make")
        'export GITHUB_TOKEN=[REDACTED] && make'
    """
    if not text:
        return text
    for rx, repl in _RULES:
        text = rx.sub(repl, text)
    return _CANDIDATE.sub(_random_looking, text)


def redact_value(value: Any) -> Any:
    """Redact strings inside a JSON-like value (dicts, lists), leaving other values alone."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, Mapping):
        return {k: redact_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_value(v) for v in value]
    return value
