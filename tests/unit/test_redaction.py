"""The redaction layer: secret shapes in every kind of text we store, and near-misses left alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recollect_graph.learners import plan as planning
from recollect_graph.learners.base import Extract
from recollect_graph.redaction import marker, only_markers, redact, redact_value
from recollect_graph.services.sessions.transcripts import parse_transcript

AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
GHP = "ghp_4fT9qLm2ZxVb7Ns1Kp0Rw8Yc3Hd6Je5Ga2Ui"
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N"
PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2\n-----END RSA PRIVATE KEY-----"

#: The four shell commands the shell learner used to store verbatim.
SHELL_REGRESSIONS = [
    ("./deploy.sh prod " + AWS_SECRET + " eu-west-1", AWS_SECRET, "aws_secret_key"),
    (
        "printf 'machine github.com login kai password Tr0ub4dor3x\\n' | tee -a ~/.netrc",
        "Tr0ub4dor3x",
        "netrc_password",
    ),
    ("aws configure set aws_secret_access_key " + AWS_SECRET, AWS_SECRET, "aws_secret_key"),
    ("redis-cli -h cache.internal -a r3disPa55 ping", "r3disPa55", "password"),
]
#: Shell commands.
SHELL = [
    *SHELL_REGRESSIONS,
    ("aws-vault add prod --secret-key " + AWS_SECRET, AWS_SECRET, "aws_secret_key"),
    ("export GITHUB_TOKEN=" + GHP + " && make release", GHP, "github_token"),
    ("mysql -u root -pHunter2Pass shop", "Hunter2Pass", "password"),
    ("sshpass -p s3cretSSH ssh deploy@web1", "s3cretSSH", "password"),
    ("curl -u kai:curlPa55w0rd https://api.example.com/v1", "curlPa55w0rd", "password"),
    ("docker login -u kai -p dckrPa55w0rd registry.example.com", "dckrPa55w0rd", "password"),
    ("psql postgres://app:pgS3cret@db.internal:5432/shop", "pgS3cret", "url_password"),
    ("tool --db-password=t00lPass -v", "t00lPass", "password"),
    ('export DB_PASSWORD="two words here"', "two words here", "password"),
    ("SLACK_TOKEN=xoxb-1234567890-abcdefghijkl ./notify.sh", "xoxb-1234567890-abcdefghijkl",
     "slack_token"),
    ("setenv API_KEY abc123def456", "abc123def456", "secret"),
]  # fmt: skip

#: Git commit messages.
GIT = [
    ("fix: rotate the Stripe key sk_live_4eC39HqLyjWDarjtT1zdp7dc leaked in config",
     "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "stripe_key"),
    ("chore: drop hard-coded glpat-x7Yh2Kd9Lm3Np5Qr8St1v from the CI script",
     "glpat-x7Yh2Kd9Lm3Np5Qr8St1v", "gitlab_token"),
    ("feat: maps use AIzaSyA1234567890abcdefghijklmnopqrstuv for geocoding",
     "AIzaSyA1234567890abcdefghijklmnopqrstuv", "google_api_key"),
    ("revert: remove github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv from README",
     "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv", "github_token"),
    ("test: fixture key\n\n" + PEM + "\n\nused only by the TLS tests", PEM, "private_key"),
]  # fmt: skip

#: The four shapes ``learn agents`` used to store verbatim.
AGENT_REGRESSIONS = [
    ("My AWS key id is AKIAIOSFODNN7EXAMPLE, can you check the bucket policy?",
     "AKIAIOSFODNN7EXAMPLE", "aws_access_key_id"),
    ("Use " + GHP + " for the gh CLI, it has repo scope.", GHP, "github_token"),
    ("The API wants Bearer a8Kd93jLq0ZxP2mWv7RtY4bN in every request.",
     "a8Kd93jLq0ZxP2mWv7RtY4bN", "bearer_token"),
    ("Stripe is configured with sk_live_51HqLyjWDarjtT1zdp7dcXYZ now.",
     "sk_live_51HqLyjWDarjtT1zdp7dcXYZ", "stripe_key"),
]  # fmt: skip
#: What agents and users say in transcripts.
AGENT = [
    *AGENT_REGRESSIONS,
    ("I set OPENAI_API_KEY=sk-proj-Q2w3E4r5T6y7U8i9O0pAsDfGhJkL in .env for you.",
     "sk-proj-Q2w3E4r5T6y7U8i9O0pAsDfGhJkL", "openai_key"),
    ("Anthropic key: sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0 works.",
     "sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0", "anthropic_key"),
    ("curl -H 'Authorization: Bearer " + JWT + "' https://api.internal/me", JWT, "jwt"),
    ('The config now reads {"client_secret": "c0nf1dent1al-value", "region": "eu"}.',
     "c0nf1dent1al-value", "secret"),
    ("Token for the webhook: a1B2c3D4e5F6g7H8i9J0k1L2m3N4", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4",
     "high_entropy"),
]  # fmt: skip

#: CI logs.
CI = [
    ("Run curl -H \"Authorization: Basic a2FpOmh1bnRlcjJodW50ZXI=\" https://nexus/upload",
     "a2FpOmh1bnRlcjJodW50ZXI=", "basic_auth"),
    ("npm notice using token npm_abcdefghijklmnopqrstuvwxyz0123456789 for publish",
     "npm_abcdefghijklmnopqrstuvwxyz0123456789", "npm_token"),
    ("E   ConnectionError: mongodb+srv://ci:M0ng0Pa55@cluster0.example.net/test",
     "M0ng0Pa55", "url_password"),
    ("  X-Api-Key: 7d9f2a1c4b8e6f3a0d5c9b2e1f4a7d8c", "7d9f2a1c4b8e6f3a0d5c9b2e1f4a7d8c", "api_key"),
    ("Connecting with Server=db;User Id=sa;Password=Sup3rS3cret!;Database=shop",
     "Sup3rS3cret!", "password"),
]  # fmt: skip

#: Notes (markdown, YAML snippets).
NOTES = [
    ("## Staging\n\ndb_password: st4gingPa55\nhost: staging.internal\n", "st4gingPa55", "password"),
    ("Netrc for the mirror:\nmachine mirror.example.com\n  login kai\n  password m1rr0rPa55\n",
     "m1rr0rPa55", "netrc_password"),
    ("The webhook is https://hooks.slack.com/services/T0123ABCD/B0456EFGH/xYz123AbC456dEf789 "
     "and posts to #deploys", "https://hooks.slack.com/services/T0123ABCD/B0456EFGH/xYz123AbC456dEf789",
     "slack_token"),
    ("Hugging Face: hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 (read only)",
     "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "huggingface_token"),
    ("export ANSIBLE_VAULT_PASSWORD=v4ultPa55 before running the playbook", "v4ultPa55",
     "password"),
]  # fmt: skip

CASES = [
    pytest.param(text, secret, kind, id=f"{where}-{i}")
    for where, table in (("shell", SHELL), ("git", GIT), ("agent", AGENT), ("ci", CI),
                         ("notes", NOTES))
    for i, (text, secret, kind) in enumerate(table)
]  # fmt: skip

NEAR_MISSES = [
    "git show 3f2a9c1b8e7d6f5a4b3c2d1e0f9a8b7c6d5e4f3a",
    "cherry-picked 3f2a9c1 and e4f3a2b onto release",
    "session a86d4c92-63e7-4116-b1bf-3b228c466d60 resumed from 5b34b852-13c2-452e-a914-264958a6cd49",
    "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "open src/components/ProductCardGridView/Item.tsx and /home/kai/src/webshop/frontend/vite.config.ts",
    "We shipped the password reset flow today; the token expiry is 15 minutes.",
    "Forgot password? The secret is to keep the key rotation short.",
    "bumped to v1.2.3-rc.1+build.20240101, then 2.14.0 and python3.11",
    "max_tokens=100 temperature=0.2 passwordless=true",
    "git log --author=kai --since=2.weeks",
    "gh auth login --with-token < token.txt",
    "Bearer tokens are sent in the Authorization header",
    "getUserAccountSettingsV2Handler calls MyDatabaseConnectionPool2Factory",
    "export PATH=/usr/local/bin:$PATH",
    "export DB_PASSWORD=$(cat /run/secrets/db) && export TOKEN=$GITHUB_TOKEN",
    "mysql -u root -p shop",
    "the oauth author=kai flow uses PKCE",
    "docker run -p 8080:80 nginx:1.27-alpine",
    "hyperfine -r 3 'target/release/logslice -s 14:00 -u 14:10 ~/tmp/nginx.log'",
    "test_redaction_rules_for_shell_history_and_transcripts passed",
]  # fmt: skip


def _assert_redacted(text: str, secret: str, kind: str, out: str) -> None:
    assert secret not in out
    assert marker(kind) in out, out
    for word in text.split():  # every word around the secret stays
        if not any(part in word for part in secret.split()):
            assert word in out, (word, out)


@pytest.mark.parametrize(("text", "secret", "kind"), CASES)
def test_a_secret_becomes_a_marker_and_the_words_around_it_stay(
    text: str, secret: str, kind: str
) -> None:
    _assert_redacted(text, secret, kind, redact(text))


def test_the_table_covers_enough_shapes() -> None:
    assert len(CASES) >= 30
    assert len({kind for _t, _s, kind in (c.values for c in CASES)}) >= 15


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses_are_left_alone(text: str) -> None:
    assert redact(text) == text


def test_redacting_twice_changes_nothing() -> None:
    for case in CASES:
        once = redact(str(case.values[0]))
        assert redact(once) == once


def write_transcript(path: Path, texts: list[str], *, command: str = "", summary: str = "") -> Path:
    """A Claude Code JSONL transcript: ``texts`` as alternating user and assistant turns.

    The last assistant turn runs ``command`` with the Bash tool (an artifact); ``summary``, when
    given, is a summary record (the session's title).
    """
    sid = path.stem
    lines = [json.dumps({"type": "summary", "summary": summary})] if summary else []
    for i, text in enumerate(texts):
        role = "user" if i % 2 == 0 else "assistant"
        blocks: list[dict[str, object]] = [{"type": "text", "text": text}]
        if command and i >= len(texts) - 2:
            blocks.append({"type": "tool_use", "name": "Bash", "input": {"command": command}})
        content = text if role == "user" else blocks
        rec = {"type": role, "uuid": f"{sid}-{i}", "sessionId": sid, "cwd": "/home/kai/src/app",
               "timestamp": f"2026-05-14T08:{i:02d}:00Z", "message": {"role": role, "content": content}}  # fmt: skip
        lines.append(json.dumps(rec))
    path.write_text("\n".join(lines) + "\n")
    return path


def test_agent_transcript_turns_are_redacted(tmp_path: Path) -> None:
    """Claude Code JSONL turns, as :func:`parse_transcript` reads them, come out clean."""
    f = write_transcript(tmp_path / "s1.jsonl", [text for text, _s, _k in AGENT])
    turns = parse_transcript(f, slug="-home-kai-src-app", kind="top", session_id="s1").turns
    assert len(turns) == len(AGENT)
    for turn, (text, secret, kind) in zip(turns, AGENT, strict=True):
        _assert_redacted(text, secret, kind, redact(turn.text))


def test_a_learner_extract_is_redacted_everywhere() -> None:
    x = Extract(
        content=GIT[0][0],
        source_id="c1",
        entry_type="note",
        tags=["deploy", GHP],
        metadata={"env": {"AWS_SECRET_ACCESS_KEY": AWS_SECRET}, "files": ["a.py"]},
        title="Rotate " + GHP,
        summary="key " + AWS_SECRET,
    )
    blob = repr(planning.clean(x))
    for secret in ("sk_live_4eC39HqLyjWDarjtT1zdp7dc", GHP, AWS_SECRET):
        assert secret not in blob
    assert "a.py" in blob and "deploy" in blob and "Rotate" in blob


def test_values_and_markers() -> None:
    assert redact_value({"a": [GHP, 3], "b": None}) == {"a": [marker("github_token"), 3], "b": None}
    assert only_markers(f" {marker('password')} ") and not only_markers("ls -la")
    assert redact("") == ""
