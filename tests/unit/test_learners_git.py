"""The git learner on real repositories made in the test: bodies, noise, types, migrations."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from recollect_graph.learners import Extract, Skip
from recollect_graph.learners.base import LearnerError
from recollect_graph.learners.git import GitLearner, commit_type, noise_reason
from recollect_graph.learners.git_stack import (
    dependency_techs,
    file_transitions,
    subject_transitions,
)

START = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)


class Repo:
    """A git repository in a temp folder with commits at fixed, increasing times."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.t = START
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str) -> str:
        env = {
            **os.environ,
            "GIT_AUTHOR_NAME": "Kai Moreno",
            "GIT_AUTHOR_EMAIL": "kai@example.com",
            "GIT_COMMITTER_NAME": "Kai Moreno",
            "GIT_COMMITTER_EMAIL": "kai@example.com",
            "GIT_AUTHOR_DATE": self.t.isoformat(),
            "GIT_COMMITTER_DATE": self.t.isoformat(),
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_CONFIG_NOSYSTEM": "1",
        }
        out = subprocess.run(["git", *args], cwd=self.path, env=env, capture_output=True,
                             text=True, check=True)  # fmt: skip
        return out.stdout.strip()

    def commit(
        self, subject: str, body: str = "", files: dict[str, str | None] | None = None
    ) -> str:
        for name, content in (files or {}).items():
            f = self.path / name
            if content is None:
                f.unlink()
            else:
                f.parent.mkdir(parents=True, exist_ok=True)
                f.write_text(content)
        self.git("add", "-A")
        msg = ["-m", subject] + (["-m", body] if body else [])
        self.git("commit", "-q", "--allow-empty", *msg)
        self.t += timedelta(hours=1)
        return self.git("rev-parse", "HEAD")


def package_json(**deps: str) -> str:
    return json.dumps({"name": "shop", "devDependencies": deps}, indent=2) + "\n"


def make_repo(path: Path) -> tuple[Repo, dict[str, str]]:
    """The shared scenario: bodies, noise, a branch merge, a webpack -> vite migration, a revert."""
    r = Repo(path)
    s: dict[str, str] = {}
    s["initial"] = r.commit("Initial commit", files={"README.md": "# Shop\n"})
    s["users"] = r.commit(
        "feat(api): add user endpoints",
        "Adds GET and POST /users.\nThe list | filter syntax follows the search API.",
        {"src/api/users.py": "def users(): ...\n"},
    )
    s["webpack"] = r.commit(
        "build: add webpack config",
        files={"package.json": package_json(webpack="^5.0.0", **{"webpack-cli": "^5.1.0"}),
               "webpack.config.js": "module.exports = {};\n"},
    )  # fmt: skip
    s["docs"] = r.commit("docs: explain the webpack build", files={"docs/build.md": "x\n"})
    s["typo"] = r.commit("fix typo", files={"README.md": "# Shop!\n"})
    s["release"] = r.commit("1.2.0", files={"VERSION": "1.2.0\n"})
    r.git("checkout", "-q", "-b", "feature/search")
    s["search"] = r.commit(
        "feat(search): add search box", "Debounced input, 200 ms.", {"web/search.ts": "x\n"}
    )
    r.git("checkout", "-q", "main")
    r.git("merge", "-q", "--no-ff", "feature/search", "-m", "Merge branch 'feature/search'")
    s["merge"] = r.git("rev-parse", "HEAD")
    r.t += timedelta(hours=1)
    s["fix"] = r.commit(
        "fix(api): handle an empty user list",
        "The endpoint returned 500 when no user matched.",
        {"src/api/users.py": "def users(): return []\n"},
    )
    s["migrate"] = r.commit(
        "build: migrate webpack to vite",
        "The dev server starts in 300 ms instead of 8 s.",
        {"package.json": package_json(vite="^5.2.0"), "webpack.config.js": None,
         "vite.config.ts": "export default {}\n"},
    )  # fmt: skip
    s["pagination"] = r.commit("feat(api): add pagination", files={"src/api/page.py": "x\n"})
    s["revert"] = r.commit(
        'Revert "feat(api): add pagination"', f"This reverts commit {s['pagination']}."
    )
    s["wip"] = r.commit("wip", files={"src/api/page.py": "y\n"})
    s["tidy"] = r.commit("chore(api): tidy user handlers", "Split the module in two.")
    return r, s


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Repo, dict[str, str]]:
    return make_repo(tmp_path / "shop")


def _outcomes(g: GitLearner) -> dict[str, Extract | Skip]:
    return {e.key: g.extract(e) for e in g.fetch_since(None, "s")}


def test_commits_are_parsed_with_full_bodies_authors_branches_and_paths(repo) -> None:
    r, s = repo
    g = GitLearner(r.path / "src" if (r.path / "src").exists() else r.path)
    events = {e.key: e for e in g.fetch_since(None, "s")}
    assert set(events) == set(s.values())
    users = events[s["users"]].data
    assert users["body"] == (
        "Adds GET and POST /users.\nThe list | filter syntax follows the search API."
    )
    assert users["author"] == "Kai Moreno" and users["branch"] == "main"
    assert users["files"] == [["A", "src/api/users.py"]]
    assert events[s["users"]].at == START + timedelta(hours=1)
    assert events[s["merge"]].data["parents"] == 2
    x = g.extract(events[s["users"]])
    assert isinstance(x, Extract)
    assert "The list | filter syntax follows the search API." in x.content
    assert x.source_id == s["users"] and x.metadata["commit_sha"] == s["users"]
    assert x.metadata["author"] == "Kai Moreno" and x.metadata["paths"] == ["src/api/users.py"]
    assert x.valid_from == START + timedelta(hours=1)
    assert set(x.tags) >= {"git", "commit", "type:feature", "area:api"}


def test_noise_is_skipped_with_reasons_and_bodies_are_kept(repo) -> None:
    r, s = repo
    out = _outcomes(GitLearner(r.path))
    reasons = {k: o.reason for k, o in out.items() if isinstance(o, Skip)}
    assert reasons == {
        s["initial"]: "initial commit",
        s["typo"]: "typo fix",
        s["release"]: "version bump",
        s["merge"]: "merge commit",
        s["wip"]: "work in progress",
    }
    kept = {k for k, o in out.items() if isinstance(o, Extract)}
    assert kept == {s[k] for k in ("users", "webpack", "docs", "search", "fix", "migrate",
                                   "pagination", "revert", "tidy")}  # fmt: skip
    # every commit with a body is kept
    for key in ("users", "search", "fix", "migrate", "revert", "tidy"):
        assert isinstance(out[s[key]], Extract), key


def test_types_valence_and_entry_types(repo) -> None:
    r, s = repo
    out = _outcomes(GitLearner(r.path))
    fix, mig, feat, rev = (out[s[k]] for k in ("fix", "migrate", "users", "revert"))
    assert isinstance(fix, Extract) and fix.valence == "negative" and "type:fix" in fix.tags
    assert isinstance(mig, Extract) and mig.entry_type == "decision"
    assert "type:migration" in mig.tags and mig.half_life_days == 90
    assert isinstance(feat, Extract) and feat.valence == "positive" and feat.entry_type == "commit"
    assert isinstance(rev, Extract) and list(rev.supersedes) == [s["pagination"]]
    search = out[s["search"]]
    assert isinstance(search, Extract) and "area:search" in search.tags


@pytest.mark.parametrize(
    ("subject", "body", "expected"),
    [
        ("feat(ui): add dark mode", "", ("feature", "ui", False)),
        ("fix!: drop python 3.8", "", ("breaking", None, True)),
        ("refactor(core): split module", "BREAKING CHANGE: renamed", ("breaking", "core", True)),
        ("chore: switch from jest to vitest", "", ("migration", None, False)),
        ("Fix crash when saving", "", ("fix", None, False)),
        ("Add prefix to cache keys", "", ("feature", None, False)),  # "prefix" is not "fix"
        ("Use the latest image", "", ("other", None, False)),  # "latest" is not "test"
        ("Update README", "", ("docs", None, False)),
        ('Revert "add x"', "", ("revert", None, False)),
        ("Speed up search, 2x faster", "", ("perf", None, False)),
    ],
)
def test_commit_type_detection(subject: str, body: str, expected: tuple) -> None:
    assert commit_type(subject, body) == expected


@pytest.mark.parametrize(
    ("subject", "body", "parents", "reason"),
    [
        ("Merge pull request #12 from kai/search", "Add search", 2, "merge commit"),
        ("Merge pull request #12 from kai/search", "Add search\n\nLong PR text.", 2, None),
        ("Bump lodash from 4.17.20 to 4.17.21", "", 1, "dependency bump"),
        ("chore(deps): bump vite to 5.2", "", 1, "dependency bump"),
        ("v2.0.1", "", 1, "version bump"),
        ("chore(release): 2.0.1", "", 1, "version bump"),
        ("Fix typos in docs", "", 1, "typo fix"),
        ("Fix typo", "The flag was spelled --verbsoe, so it never worked.", 1, None),
        ("style: reformat with black", "", 1, "formatting"),
        ("fixup! add search", "", 1, "work in progress"),
        ("update", "", 1, "no description"),
        ("Fix typo", "Signed-off-by: Kai <kai@example.com>", 1, "typo fix"),
        ("Add retry to the payment client", "", 1, None),
    ],
)
def test_noise_rules(subject: str, body: str, parents: int, reason: str | None) -> None:
    assert noise_reason(subject, body, parents) == reason


def test_migration_patterns_from_subject_dependencies_and_config_files(repo) -> None:
    r, s = repo
    g = GitLearner(r.path)
    events = g.fetch_since(None, "s")
    mig = next(e for e in events if e.key == s["migrate"])
    assert mig.data["dependency_transitions"] == [["webpack", "vite"]]
    patterns = g.detect_patterns(events)
    assert [(p.type, p.old, p.new) for p in patterns] == [("migration", "webpack", "vite")]
    assert [e.key for e in patterns[0].events] == [s["migrate"]]
    assert "webpack to vite" in patterns[0].summary


def test_transitions_need_two_tools_of_one_category() -> None:
    assert subject_transitions("chore: replace jest with vitest") == [("jest", "vitest")]
    assert subject_transitions("Migrate from Webpack to Vite") == [("webpack", "vite")]
    assert subject_transitions("move from src to lib") == []
    assert subject_transitions("migrate settings to pydantic") == []
    assert subject_transitions("replace redis with postgres") == []  # not alternatives
    files = [["D", ".travis.yml"], ["A", ".github/workflows/ci.yml"], ["M", "README.md"]]
    assert file_transitions(files) == [("travis", "github actions")]
    assert file_transitions([["D", "yarn.lock"], ["A", "pnpm-lock.yaml"]]) == [("yarn", "pnpm")]
    assert dependency_techs(['    "ts-jest": "^29",', "pytest==8.1", '"name": "vite-demo",']) == {
        "jest",
        "pytest",
    }


def test_area_summaries_group_a_runs_commits(repo) -> None:
    r, s = repo
    g = GitLearner(r.path)
    summaries = g.summarize(g.fetch_since(None, "s"), "s")
    by_area = {x.metadata["area"]: x for x in summaries}
    assert set(by_area) == {"api"}  # only areas with three or more kept commits
    api = by_area["api"]
    assert api.metadata["commits"] == 4 and api.entry_type == "note"
    assert "Development activity in api (4 commits" in api.content
    assert "feat(api): add user endpoints" in api.content
    assert api.source_id == f"area:api:{s['users'][:12]}..{s['tidy'][:12]}"


def test_since_filters_by_commit_time(repo) -> None:
    r, s = repo
    g = GitLearner(r.path)
    later = g.fetch_since(START + timedelta(hours=9), "s")  # inclusive
    assert {e.key for e in later} == {s[k] for k in ("migrate", "pagination", "revert", "wip",
                                                     "tidy")}  # fmt: skip
    assert g.fetch_since(datetime(2030, 1, 1, tzinfo=UTC), "s") == []


def test_stream_is_the_root_commit_so_clones_share_it(repo, tmp_path: Path) -> None:
    r, _ = repo
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(r.path), str(clone)], check=True)
    assert GitLearner(clone).stream() == GitLearner(r.path).stream()


def test_not_a_repository_and_empty_repository(tmp_path: Path) -> None:
    with pytest.raises(LearnerError, match="git rev-parse failed"):
        GitLearner(tmp_path)
    with pytest.raises(LearnerError, match="is not a directory"):
        GitLearner(tmp_path / "missing")
    empty = Repo(tmp_path / "empty")
    assert GitLearner(empty.path).fetch_since(None, "s") == []
