"""The shell-history learner: zsh and bash formats, collapsing, trivial commands, redaction."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from recollect_graph.learners import Extract, Skip
from recollect_graph.learners.base import LearnerError
from recollect_graph.learners.shell import ShellLearner, parse_history, trivial_reason, unmetafy
from recollect_graph.redaction import marker

T0 = 1_709_283_600  # 2024-03-01 09:00 UTC
SECRETS = [
    "ghp_4fT9qLm2ZxVb7Ns1Kp0Rw8Yc3Hd6Je5Ga2Ui",
    "hunter2-Passw0rd",
    "AKIAIOSFODNN7EXAMPLE",
    "sk-proj-Q2w3E4r5T6y7U8i9O0pAsDfGhJkL",
    "s3cr3t-db-pass",
    "xoxb-1234567890-abcdefghijkl",
    "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MEFCQ0RFRkdI",
]


def zsh_history() -> bytes:
    lines = [
        f": {T0}:0;git status",
        f": {T0 + 10}:4;make test",
        f": {T0 + 20}:0;export GITHUB_TOKEN={SECRETS[0]}",
        f": {T0 + 30}:95;docker compose up -d --build",
        f": {T0 + 40}:0;mysql -u root -p{SECRETS[1]} shop",
        f": {T0 + 50}:2;make test",
        f": {T0 + 60}:0;aws s3 ls --profile prod # key {SECRETS[2]}",
        f": {T0 + 70}:0;psql postgres://app:{SECRETS[4]}@db.internal:5432/shop",
        f": {T0 + 80}:0;for f in *.log; do \\",
        "  gzip $f; \\",
        "done",
        f": {T0 + 90}:0;ls -la",
        f": {T0 + 100}:0;apt install ripgrep",
        f": {T0 + 101}:0;sudo apt install ripgrep",
        f": {T0 + 110}:0;make test",
    ]
    text = "\n".join(lines) + "\n"
    # a non-ASCII command, metafied the way zsh writes it
    word = "café".encode()
    meta = b"".join(bytes([0x83, b ^ 0x20]) if b >= 0x80 else bytes([b]) for b in word)
    return text.encode() + f": {T0 + 120}:0;echo ".encode() + meta + b" > menu.txt\n"


def bash_history() -> str:
    return (
        "\n".join(
            [
                f"#{T0}",
                f"curl -H 'Authorization: Bearer {SECRETS[3]}' https://api.example.com/v1/me",
                f"#{T0 + 5}",
                f"SLACK_TOKEN={SECRETS[5]} ./notify.sh deploy",
                f"#{T0 + 9}",
                f"deploy --api-key {SECRETS[6]} --env prod",
                f"#{T0 + 12}",
                "cd ~/src/shop",
                "terraform plan -out plan.tfplan",  # no timestamp line
            ]
        )
        + "\n"
    )


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    z = tmp_path / ".zsh_history"
    z.write_bytes(zsh_history())
    b = tmp_path / ".bash_history"
    b.write_text(bash_history())
    return z, b


def test_zsh_extended_format_continuations_and_metafied_bytes(files) -> None:
    z, _ = files
    rows = parse_history(unmetafy(z.read_bytes()))
    cmds = [c for _t, c, _d in rows]
    assert cmds[0] == "git status" and rows[0][0] == datetime.fromtimestamp(T0, UTC)
    assert "for f in *.log; do \n  gzip $f; \ndone" in cmds
    assert cmds[-1] == "echo café > menu.txt"
    assert rows[3][2] == 95  # elapsed seconds


def test_bash_timestamps_and_plain_lines(files) -> None:
    _, b = files
    rows = parse_history(b.read_text())
    assert [t is not None for t, _c, _d in rows] == [True, True, True, True, False]
    assert rows[-1][1] == "terraform plan -out plan.tfplan"


def test_secrets_are_redacted_before_anything_else(files) -> None:
    learner = ShellLearner(list(files))
    events = learner.fetch_since(None, "s")
    blob = repr([(e.key, dict(e.data)) for e in events])
    blob += repr([learner.extract(e) for e in events])
    for secret in SECRETS:
        assert secret not in blob, secret
    texts = {e.data["command"] for e in events}
    assert f"export GITHUB_TOKEN={marker('github_token')}" in texts
    assert f"mysql -u root -p{marker('password')} shop" in texts
    assert f"psql postgres://app:{marker('url_password')}@db.internal:5432/shop" in texts
    bearer = f"curl -H 'Authorization: Bearer {marker('openai_key')}' https://api.example.com/v1/me"
    assert bearer in texts
    assert f"SLACK_TOKEN={marker('slack_token')} ./notify.sh deploy" in texts
    assert f"deploy --api-key {marker('aws_secret_key')} --env prod" in texts  # 40 base64


def test_repeated_commands_are_collapsed_and_trivial_ones_skipped(files) -> None:
    learner = ShellLearner([files[0]])
    events = {e.data["command"]: e for e in learner.fetch_since(None, "s")}
    make = events["make test"]
    assert make.data["count"] == 3
    assert make.data["first"] == datetime.fromtimestamp(T0 + 10, UTC).isoformat()
    assert make.at == datetime.fromtimestamp(T0 + 110, UTC)
    x = learner.extract(make)
    assert isinstance(x, Extract) and "used 3x" in x.content and "cmd:make" in x.tags
    assert learner.extract(events["git status"]) == Skip("routine git command")
    assert learner.extract(events["ls -la"]) == Skip("trivial command")
    long_one = learner.extract(events["docker compose up -d --build"])
    assert isinstance(long_one, Extract) and "95 seconds" in long_one.content


def test_a_command_rerun_with_sudo_is_noted_as_failed(files) -> None:
    learner = ShellLearner([files[0]])
    events = {e.data["command"]: e for e in learner.fetch_since(None, "s")}
    x = learner.extract(events["apt install ripgrep"])
    assert isinstance(x, Extract) and x.valence == "negative" and "failed" in x.tags


def test_since_and_source_ids(files) -> None:
    learner = ShellLearner([files[0]])
    later = learner.fetch_since(datetime.fromtimestamp(T0 + 95, UTC), "s")
    assert {e.data["command"] for e in later} == {
        "apt install ripgrep", "sudo apt install ripgrep", "make test", "echo café > menu.txt",
    }  # fmt: skip
    again = {e.data["command"]: e.key for e in learner.fetch_since(None, "s")}
    assert {e.key for e in later} <= set(again.values())  # a command's id never changes


@pytest.mark.parametrize(
    ("cmd", "reason"),
    [
        ("cd ..", "trivial command"),
        ("git diff HEAD~1", "routine git command"),
        ("vim src/app.py", "file viewing or editing"),
        ("sudo !!", "history expansion"),
        ("git rebase -i main", None),
        ("FOO=1 pytest -k search", None),
    ],
)
def test_trivial_commands(cmd: str, reason: str | None) -> None:
    assert trivial_reason(cmd) == reason


def test_missing_history_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(LearnerError, match="is not a file"):
        ShellLearner([tmp_path / "nope"])
