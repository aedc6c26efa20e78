"""Technology transitions in a git history: which tool replaced which.

Three signals, each needing two technologies of one category (two bundlers, two test
frameworks...), so "migrate settings to v2" or "move from src to lib" never count:

- the commit subject says so ("migrate webpack to vite", "replace jest with vitest", "switch from
  travis to github actions"), read with the contradiction service's migration phrases;
- a dependency file drops one and adds the other in the same commit (``package.json``,
  ``requirements*.txt``, ``pyproject.toml``, ``Gemfile``, ``go.mod``, ``Cargo.toml``...);
- a config file of one is deleted and one of the other added (``webpack.config.js`` ->
  ``vite.config.ts``, ``.travis.yml`` -> ``.github/workflows/ci.yml``, ``yarn.lock`` ->
  ``pnpm-lock.yaml``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from recollect_graph.nlp.claim_lexicon import CATEGORIES, canonical
from recollect_graph.services.claims.invalidation import detect_migrations

#: Categories of the claim lexicon that are not tools a repository migrates between.
_NOT_TOOLS = {"indentation", "merge_strategy", "branch", "os", "shell", "editor", "cloud"}
#: Tool categories the lexicon lacks.
_EXTRA: dict[str, tuple[str, ...]] = {
    "linter": ("eslint", "tslint", "jshint", "flake8", "pylint", "ruff", "rubocop", "standard"),
    "formatter": ("prettier", "black", "yapf", "autopep8", "biome"),
    "transpiler": ("babel", "swc", "sucrase"),
    "css": ("sass", "less", "stylus", "tailwind", "styled-components", "emotion"),
    "python_packaging": ("setuptools", "poetry", "pipenv", "hatch", "pdm", "flit"),
    "http_client": ("axios", "superagent", "requests", "httpx", "urllib3", "aiohttp"),
    "date_library": ("moment", "dayjs", "date-fns", "luxon"),
    "orm": ("sequelize", "typeorm", "prisma", "sqlalchemy", "peewee", "knex", "drizzle"),
    "web_framework": ("express", "fastify", "koa", "hapi", "flask", "fastapi", "django",
                      "rails", "sinatra", "next", "nuxt", "remix", "gatsby"),
    "state_management": ("redux", "mobx", "zustand", "recoil", "vuex", "pinia"),
}  # fmt: skip
TECH: dict[str, str] = {
    name: cat
    for cat, names in [*CATEGORIES.items(), *_EXTRA.items()]
    if cat not in _NOT_TOOLS
    for name in names
}
#: Package names that stand for a technology.
PACKAGES: dict[str, str] = {
    "@babel/core": "babel", "babel-core": "babel", "babel-loader": "babel", "@swc/core": "swc",
    "swc-loader": "swc", "node-sass": "sass", "sass-loader": "sass", "tailwindcss": "tailwind",
    "ts-jest": "jest", "@types/jest": "jest", "babel-jest": "jest", "webpack-cli": "webpack",
    "webpack-dev-server": "webpack", "@vitejs/plugin-react": "vite", "@vitejs/plugin-vue": "vite",
    "psycopg2": "postgres", "psycopg2-binary": "postgres", "psycopg": "postgres", "pg": "postgres",
    "asyncpg": "postgres", "pymysql": "mysql", "mysqlclient": "mysql", "mysql2": "mysql",
    "pymongo": "mongodb", "nose": "nose", "@biomejs/biome": "biome", "standardjs": "standard",
    "@prisma/client": "prisma", "drizzle-orm": "drizzle", "vue": "vue", "react": "react",
}  # fmt: skip
#: Config files (basename prefix, or a folder in the path) that show a technology is in use.
CONFIG_FILES: tuple[tuple[str, str], ...] = (
    ("webpack.config", "webpack"), ("vite.config", "vite"), ("rollup.config", "rollup"),
    ("jest.config", "jest"), ("vitest.config", "vitest"), (".eslintrc", "eslint"),
    ("eslint.config", "eslint"), ("tslint.json", "tslint"), (".babelrc", "babel"),
    ("babel.config", "babel"), (".swcrc", "swc"), ("tailwind.config", "tailwind"),
    ("package-lock.json", "npm"), ("yarn.lock", "yarn"), ("pnpm-lock.yaml", "pnpm"),
    ("bun.lockb", "bun"), ("poetry.lock", "poetry"), ("pipfile", "pipenv"), ("uv.lock", "uv"),
    ("setup.py", "setuptools"), (".travis.yml", "travis"), ("jenkinsfile", "jenkins"),
    (".gitlab-ci.yml", "gitlab ci"), ("pytest.ini", "pytest"), (".flake8", "flake8"),
    (".pylintrc", "pylint"), ("ruff.toml", "ruff"), (".prettierrc", "prettier"),
    (".mocharc", "mocha"), ("biome.json", "biome"),
)  # fmt: skip
_CONFIG_DIRS = ((".github/workflows/", "github actions"), (".circleci/", "circleci"))
#: Files whose lines name dependencies.
DEPENDENCY_FILES = (
    "package.json", "requirements.txt", "requirements-dev.txt", "dev-requirements.txt",
    "pyproject.toml", "Pipfile", "setup.cfg", "Gemfile", "go.mod", "Cargo.toml", "mix.exs",
    "pom.xml", "build.gradle", "build.gradle.kts", "composer.json",
)  # fmt: skip
_TOKEN = re.compile(r"@?[A-Za-z0-9][A-Za-z0-9_.\-/]*")


def tech_of(name: str) -> str | None:
    """The technology a name or package stands for (canonical), if it is a known tool."""
    key = canonical(name).strip("\"'`,;:[]{}()")
    key = PACKAGES.get(key, key)
    return key if key in TECH else None


def is_dependency_file(path: str) -> bool:
    """Whether ``path`` is a dependency manifest."""
    base = path.rsplit("/", 1)[-1]
    return base in DEPENDENCY_FILES or bool(re.match(r"requirements[\w.-]*\.txt$", base))


def config_tech(path: str) -> str | None:
    """The technology a config or lock file belongs to."""
    for folder, tech in _CONFIG_DIRS:
        if path.startswith(folder) or f"/{folder}" in path:
            return tech
    base = path.rsplit("/", 1)[-1].lower()
    for prefix, tech in CONFIG_FILES:
        if base.startswith(prefix):
            return tech
    return None


def dependency_techs(lines: Iterable[str]) -> set[str]:
    """Technologies named in dependency-file lines (a JSON line counts its key only)."""
    found: set[str] = set()
    for line in lines:
        text = line.strip()
        if text.startswith('"') and '":' in text:
            text = text.split('":', 1)[0]
        for tok in _TOKEN.findall(text):
            t = tech_of(tok.lower())
            if t:
                found.add(t)
    return found


def pairs(removed: Iterable[str], added: Iterable[str]) -> list[tuple[str, str]]:
    """(old, new) pairs of one category among removed and added technologies."""
    rem, add = set(removed), set(added)
    rem, add = rem - add, add - rem
    return sorted((o, n) for o in rem for n in add if TECH.get(o) == TECH.get(n))


def file_transitions(files: Sequence[Sequence[str]]) -> list[tuple[str, str]]:
    """Transitions shown by config files deleted and added in one commit (name-status rows)."""
    deleted = {t for st, p in files if st == "D" and (t := config_tech(p))}
    added = {t for st, p in files if st == "A" and (t := config_tech(p))}
    kept = {t for st, p in files if st == "M" and (t := config_tech(p))}
    return pairs(deleted - kept, added)


def subject_transitions(subject: str) -> list[tuple[str, str]]:
    """Transitions a commit subject announces; both sides must be tools of one category."""
    out = []
    for m in detect_migrations([subject]):
        old, new = tech_of(m["from"]), tech_of(m["to"])
        if old and new and old != new and TECH[old] == TECH[new]:
            out.append((old, new))
    return out
