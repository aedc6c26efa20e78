"""Secret redaction: one layer for everything that may carry a credential into the graph.

A bottom layer (it imports nothing from the package), used by every learner (the plan redacts
content, title, summary, tags and metadata; the shell learner redacts each command as it is read),
by :meth:`Sessions.add_turns <recollect_graph.services.sessions.service.Sessions.add_turns>` (turn
text, session title and artifacts: ``sessions add``, ``learn agents``) and, when asked with
``redact=True`` (CLI ``--redact``), by ``remember`` / ``remember_many``.

Each secret becomes a marker naming its kind (``[REDACTED:aws_secret_key]``); the words around it
stay, so the entry keeps its meaning. Detectors, in order:

* known key shapes: private key (PEM) blocks, AWS access key ids, GitHub (``ghp_``, ``gho_``,
  ``ghu_``, ``ghs_``, ``ghr_``, ``github_pat_``), GitLab ``glpat-``, Slack ``xox*`` tokens and
  webhooks, Stripe ``sk_``/``rk_`` keys, OpenAI and Anthropic ``sk-`` keys, Google ``AIza`` keys,
  npm, PyPI and Hugging Face tokens, JWTs;
* context: ``Authorization: Bearer|Basic|token ...`` and API-key headers, a ``Bearer`` token in
  prose, ``scheme://user:password@host``, assignments whose name says credential (``export
  GITHUB_TOKEN=...``, ``password=...``, ``Password=...;`` in connection strings, ``"secret":
  "..."``, ``api_key: ...`` lines), ``setenv``, ``aws configure set aws_secret_access_key ...``,
  ``.netrc`` ``password`` entries, CLI password arguments (``--password``, ``--token``,
  ``--api-key`` and the like, ``mysql -p...``, ``redis-cli -a ...``, ``sshpass -p ...``,
  ``docker login -p ...``, ``curl``/``wget -u user:pass``);
* entropy: a 40-character base64 word (the shape of an AWS secret access key) and any long
  key-shaped word of mixed letters and digits whose Shannon entropy is high. Hex-only words (git
  SHAs, digests), UUIDs, paths, version strings and ordinary words are left alone.

Nothing here logs; a secret never leaves :func:`redact` except replaced.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

#: Matches one redaction marker, e.g. ``[REDACTED:github_token]``.
MARKER = re.compile(r"\[REDACTED:[a-z_]+\]")


def marker(kind: str) -> str:
    """The text a secret of ``kind`` is replaced with (``[REDACTED:<kind>]``)."""
    return f"[REDACTED:{kind}]"


def only_markers(text: str) -> bool:
    """Whether ``text`` is nothing but redaction markers (and white space)."""
    return bool(MARKER.search(text)) and not MARKER.sub("", text).strip()


@dataclass(frozen=True)
class _Rule:
    """One detector: where it matches, the group ``s`` (else the whole match) is the secret."""

    kind: str | Callable[[re.Match[str]], str]
    rx: re.Pattern[str]
    check: Callable[[str], bool] | None = None


_NOT_MARKED = r"(?!\[REDACTED:)"
#: A value: quoted, or one word up to a shell separator.
_VALUE = rf"(?:\"{_NOT_MARKED}[^\"\n]*\"|'{_NOT_MARKED}[^'\n]*'|{_NOT_MARKED}[^\s;&|'\"]+)"
_CRED_WORD = (
    r"(?:TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY"
    r"|CLIENT_?SECRET|CREDENTIALS?)"
)
#: A variable or key name that says it holds a credential (the word ends a name segment, so
#: ``max_tokens`` or ``passwordless`` are not names of secrets).
_SECRET_NAME = (
    rf"(?:[A-Za-z0-9_]{{0,40}}?{_CRED_WORD}(?:_[A-Za-z0-9_]{{0,40}})?"
    r"|[A-Za-z0-9_]{1,40}_(?:KEY|PASS|PWD|AUTH)|PASS|PWD|AUTH)"
)
#: The rest of one shell command before an argument (bounded: linear time on any input).
_ARGS = r"[^|;&\n]{0,300}?"
_CLI_SECRET = (
    r"(?:password|passwd|pass|pw|token|secret|api[-_]?key|access[-_]?key|auth[-_]?token"
    r"|client[-_]?secret|private[-_]?key|passphrase|secret[-_]?key)"
)


def _entropy(s: str) -> float:
    counts = Counter(s)
    return -sum(c / len(s) * math.log2(c / len(s)) for c in counts.values())


def _mixed(s: str) -> bool:
    return (
        any(c.isupper() for c in s) and any(c.islower() for c in s) and any(c.isdigit() for c in s)
    )


def _random_key(s: str) -> bool:
    """A key-shaped word: mixed letters and digits, high entropy, not hex, not a UUID."""
    if re.fullmatch(r"[0-9a-fA-F-]+", s):  # git SHAs, digests, UUIDs
        return False
    return _mixed(s) and sum(c.isdigit() for c in s) >= 2 and _entropy(s) >= 4.2


def _aws_secret(s: str) -> bool:
    """40 base64 characters of random-looking mixed case (not a path or a word chain)."""
    upper = sum(c.isupper() for c in s)
    lower = sum(c.islower() for c in s)
    return _mixed(s) and upper >= 6 and lower >= 6 and s.count("/") <= 3 and _entropy(s) >= 4.2


def _is_password_name(m: re.Match[str]) -> str:
    name = m.group("name").upper()
    return "password" if any(w in name for w in ("PASS", "PWD", "PW")) else "secret"


def _not_reference(s: str) -> bool:
    """Not a variable reference (``$TOKEN``, ``${TOKEN}``, ``$(cat f)``) or an empty value."""
    return s.strip("\"'") not in ("", "*", "***") and not s.strip("\"'").startswith(("$", "<"))


_RULES: list[_Rule] = [
    _Rule(
        "private_key",
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
            r".*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\Z)",
            re.S,
        ),
    ),
    # -- known key shapes ------------------------------------------------------------------------
    _Rule(
        "aws_access_key_id",
        re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[0-9A-Z]{16}\b"),
    ),
    _Rule(
        "github_token",
        re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})\b"),
    ),
    _Rule("gitlab_token", re.compile(r"\bgl(?:pat|dt|rt|ptt)-[A-Za-z0-9_-]{20,}")),
    _Rule(
        "slack_token",
        re.compile(
            r"\bxox[abposre]-[A-Za-z0-9-]{10,}"
            r"|https://hooks\.slack\.com/services/T[A-Za-z0-9]+/B[A-Za-z0-9]+/[A-Za-z0-9]+"
        ),
    ),
    _Rule("stripe_key", re.compile(r"\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}")),
    _Rule("anthropic_key", re.compile(r"\bsk-ant-[A-Za-z0-9_-]{20,}")),
    _Rule("openai_key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}")),
    _Rule("google_api_key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
    _Rule("npm_token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
    _Rule("pypi_token", re.compile(r"\bpypi-AgE[A-Za-z0-9_-]{50,}")),
    _Rule("huggingface_token", re.compile(r"\bhf_[A-Za-z0-9]{30,}\b")),
    _Rule("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    # the shape of an AWS secret access key: 40 random-looking base64 characters
    _Rule(
        "aws_secret_key",
        re.compile(r"(?<![A-Za-z0-9/+=_.-])(?P<s>[A-Za-z0-9][A-Za-z0-9/+]{39})(?![A-Za-z0-9/+=_])"),
        check=_aws_secret,
    ),
    # -- context ---------------------------------------------------------------------------------
    _Rule(
        "basic_auth",
        re.compile(rf"(?i)\bauthorization\s*:\s*basic\s+(?P<s>{_NOT_MARKED}[A-Za-z0-9+/=._-]+)"),
    ),
    _Rule(
        "bearer_token",
        re.compile(
            r"(?i)\b(?:proxy-)?authorization\s*:\s*(?:(?:bearer|basic|token)\s+)?+"
            rf"(?P<s>{_NOT_MARKED}[^\s'\"]+)"
        ),
    ),
    _Rule(
        "bearer_token",
        re.compile(rf"(?i)\bbearer\s+(?P<s>{_NOT_MARKED}[A-Za-z0-9._~+/=-]{{8,}})"),
        check=lambda s: any(c.isdigit() for c in s),
    ),
    _Rule(
        "api_key",
        re.compile(
            r"(?i)\b(?:x-api-key|api-key|private-token|x-auth-token|x-access-token)\s*:\s*"
            rf"(?P<s>{_NOT_MARKED}[^\s'\"]+)"
        ),
    ),
    _Rule(
        "url_password",
        re.compile(
            r"\b[a-zA-Z][a-zA-Z0-9+.-]{0,30}://[^/\s:@'\"]{1,200}:"
            rf"(?P<s>{_NOT_MARKED}[^/\s@'\"]+)@"
        ),
    ),
    _Rule(
        "aws_secret_key",
        re.compile(
            rf"(?i)\baws\s+configure\s+set\s+(?:{_ARGS}\s)?(?:[\w-]+\.)?"
            rf"(?:aws_secret_access_key|aws_session_token)\s+(?P<s>{_VALUE})"
        ),
        check=_not_reference,
    ),
    _Rule(
        "aws_secret_key",
        re.compile(
            r"(?i)\b(?:aws_secret_access_key|aws_session_token|secret_access_key)['\"]?"
            rf"\s*[=:]\s*(?P<s>{_VALUE})"
        ),
        check=_not_reference,
    ),
    _Rule(
        "netrc_password",
        re.compile(
            r"(?i)\b(?:machine\s+\S+\s+(?:login\s+\S+\s+)?|login\s+\S+\s+|default\s+)"
            r"password\s+(?P<s>(?!\[REDACTED:)[^\s'\"\\]+)"
        ),
    ),
    _Rule(
        _is_password_name,
        re.compile(rf"(?<![\w$-])(?P<name>{_SECRET_NAME})(?:\s*=\s*)(?P<s>{_VALUE})", re.I),
        check=_not_reference,
    ),
    _Rule(
        _is_password_name,
        re.compile(
            rf"(?i)[\"'](?P<name>{_SECRET_NAME})[\"']\s*:\s*\"(?P<s>{_NOT_MARKED}[^\"\n]+)\""
        ),
        check=_not_reference,
    ),
    _Rule(
        _is_password_name,
        re.compile(
            rf"(?im)^[ \t-]*(?P<name>{_SECRET_NAME})\s*:\s*(?P<s>{_NOT_MARKED}[^\s'\"#]+)[ \t]*$"
        ),
        check=_not_reference,
    ),
    _Rule(
        _is_password_name,
        re.compile(rf"(?i)\bsetenv\s+(?P<name>{_SECRET_NAME})\s+(?P<s>{_VALUE})"),
        check=_not_reference,
    ),
    _Rule(
        _is_password_name,
        re.compile(
            rf"(?i)(?<![\w-])--?(?P<name>(?:[a-z0-9]+[-_])*{_CLI_SECRET})(?:=|\s+)(?P<s>{_VALUE})"
        ),
        check=_not_reference,
    ),
    # mysql -psecret (-p alone, or -p and a space, prompts: the next word is the database)
    _Rule("password", re.compile(rf"\bmysql\w*\b{_ARGS}\s-p(?P<s>(?!\[REDACTED:)[^\s'\"]+)")),
    _Rule("password", re.compile(rf"\bsshpass\s+-p\s*(?P<s>{_VALUE})")),
    _Rule("password", re.compile(rf"\bredis-cli\b{_ARGS}\s-a\s+(?P<s>{_VALUE})")),
    _Rule(
        "password",
        re.compile(
            rf"\b(?:docker|podman|helm)\s+(?:registry\s+)?login\b{_ARGS}\s-p\s+(?P<s>{_VALUE})"
        ),
    ),
    _Rule(
        "password",
        re.compile(
            rf"\b(?:curl|wget|http|https|xh)\b{_ARGS}(?:\s-u|\s--user)(?:=|\s+)['\"]?[^\s:'\"]+:"
            rf"(?P<s>{_NOT_MARKED}[^\s'\"]+)"
        ),
    ),
    # -- entropy ---------------------------------------------------------------------------------
    _Rule(
        "high_entropy",
        re.compile(r"(?<![A-Za-z0-9_+=/.-])(?P<s>[A-Za-z0-9_+=-]{24,})(?![A-Za-z0-9_+=/.-])"),
        check=_random_key,
    ),
]


def _apply(rule: _Rule, text: str) -> str:
    def repl(m: re.Match[str]) -> str:
        group = "s" if "s" in m.re.groupindex else 0
        secret = m.group(group)
        if rule.check is not None and not rule.check(secret):
            return m.group(0)
        kind = rule.kind(m) if callable(rule.kind) else rule.kind
        start, end = m.start(group) - m.start(), m.end(group) - m.start()
        if len(secret) >= 2 and secret[0] == secret[-1] and secret[0] in "'\"":
            start, end = start + 1, end - 1  # a quoted value keeps its quotes
        whole = m.group(0)
        return whole[:start] + marker(kind) + whole[end:]

    return rule.rx.sub(repl, text)


def redact(text: str) -> str:
    """``text`` with every secret replaced by a ``[REDACTED:<kind>]`` marker, the rest intact.

    Example:
        >>> redact("export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 && make")
        'export GITHUB_TOKEN=[REDACTED:github_token] && make'
    """
    if not text:
        return text
    for rule in _RULES:
        text = _apply(rule, text)
    return text


def redact_value(value: Any) -> Any:
    """Redact strings inside a JSON-like value (dicts, lists), leaving other values alone."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, Mapping):
        return {k: redact_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_value(v) for v in value]
    return value
