"""Config files: the user's (in the config directory) and an optional one per project.

Two TOML files hold defaults, each a flat table of ``key = value``:

- the **user file**, ``config.toml`` in the config directory (``$RECOLLECT_CONFIG_DIR``, else
  ``$XDG_CONFIG_HOME/recollect-graph``, else ``~/.config/recollect-graph``: the directory that
  also keeps the embedded server's password);
- the **project file**, ``.recollect-graph.toml``, the first one found walking up from the
  current directory.

Precedence, highest first: a command-line flag, the environment (``RECOLLECT_SCOPE``,
``NEO4J_URI``...), the project file, the user file, the built-in default. Only the keys of
:data:`KEYS` are accepted (an unknown key is one :class:`ConfigError` listing them); the password
never lives in a file (``NEO4J_PASSWORD``, or the embedded server's generated one).

Example:
    >>> sorted(KEYS)[:3]
    ['bolt_port', 'cache_dir', 'data_dir']
"""

from __future__ import annotations

import json
import os
import tempfile
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from recollect_graph.errors import ConfigError

#: File name of the user file, inside the config directory.
USER_FILE = "config.toml"
#: File name of a project file, looked for in the current directory and its parents.
PROJECT_FILE = ".recollect-graph.toml"

#: Config-file key -> settings field (``recollect_graph.settings.Settings``).
KEYS: dict[str, str] = {
    "scope": "default_scope",
    "owner": "default_owner",
    "uri": "neo4j_uri",
    "user": "neo4j_user",
    "database": "neo4j_database",
    "data_dir": "data_dir",
    "cache_dir": "cache_dir",
    "bolt_port": "bolt_port",
    "http_port": "http_port",
    "heap_mb": "heap_mb",
    "pagecache_mb": "pagecache_mb",
    "start_timeout_s": "start_timeout_s",
    "embedding_model": "embedding_model",
    "embedding_batch_size": "embedding_batch_size",
    "spacy_model": "spacy_model",
    "fusion": "fusion",
    "search_candidates": "search_candidates",
}


def xdg_dir(var: str, fallback: str, environ: Mapping[str, str] | None = None) -> Path:
    """``$var/recollect-graph``, else ``~/<fallback>/recollect-graph``."""
    env = os.environ if environ is None else environ
    base = env.get(var)
    return (Path(base) if base else Path.home() / fallback) / "recollect-graph"


def user_file(environ: Mapping[str, str] | None = None) -> Path:
    """Path of the user file (it may not exist)."""
    env = os.environ if environ is None else environ
    configured = (env.get("RECOLLECT_CONFIG_DIR") or "").strip()
    base = Path(configured) if configured else xdg_dir("XDG_CONFIG_HOME", ".config", env)
    return base / USER_FILE


def project_file(start: Path | None = None) -> Path | None:
    """The nearest ``.recollect-graph.toml`` in ``start`` (default: cwd) or a parent, or None."""
    try:
        here = (start or Path.cwd()).resolve()
    except OSError:  # the current directory was removed
        return None
    for d in (here, *here.parents):
        candidate = d / PROJECT_FILE
        if candidate.is_file():
            return candidate
    return None


def read(path: Path) -> dict[str, Any]:
    """The keys of one config file (``{}`` when it does not exist).

    Raises:
        ConfigError: It cannot be read, is not TOML, or holds a key outside :data:`KEYS`.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"cannot read config file {path}: {e}") from e
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"config file {path} is not valid TOML: {e}") from e
    for key, value in data.items():
        check_key(key, where=str(path))
        if isinstance(value, dict | list):
            raise ConfigError(f"config file {path}: {key} must be a single value")
    return data


def check_key(key: str, *, where: str = "config") -> str:
    """``key`` when it is one of :data:`KEYS`; else :class:`ConfigError` listing them."""
    if key not in KEYS:
        hint = " (keep it in NEO4J_PASSWORD)" if "password" in key else ""
        raise ConfigError(
            f"{where}: unknown key {key!r}{hint}; known keys: {', '.join(sorted(KEYS))}"
        )
    return key


def layered(environ: Mapping[str, str] | None = None, cwd: Path | None = None) -> LayeredFiles:
    """Both files, read: the values they set and where each came from."""
    user = user_file(environ)
    project = project_file(cwd)
    return LayeredFiles(user, read(user), project, read(project) if project else {})


class LayeredFiles:
    """The user file and the project file, read (the project file wins over the user file).

    Attributes:
        user_path: Path of the user file (it may not exist).
        user: Its keys.
        project_path: Path of the project file found, or None.
        project: Its keys.
    """

    def __init__(
        self,
        user_path: Path,
        user: dict[str, Any],
        project_path: Path | None,
        project: dict[str, Any],
    ) -> None:
        self.user_path = user_path
        self.user = user
        self.project_path = project_path
        self.project = project

    def fields(self) -> dict[str, Any]:
        """Settings field -> value, the project file's over the user file's."""
        merged = {**self.user, **self.project}
        return {KEYS[k]: v for k, v in merged.items()}

    def source(self, key: str) -> str | None:
        """Which file sets ``key`` (``project file PATH`` / ``user file PATH``), or None."""
        if key in self.project:
            return f"project file {self.project_path}"
        if key in self.user:
            return f"user file {self.user_path}"
        return None


def write(path: Path, values: Mapping[str, Any]) -> None:
    """Write a config file atomically (a temporary file in the same directory, then a rename).

    The keys are written sorted, one ``key = value`` line each; comments are not kept.
    """
    for key in values:
        check_key(key)
    lines = ["# recollect-graph settings (recollect-graph config set KEY VALUE)"]
    lines += [f"{k} = {_toml_value(values[k])}" for k in sorted(values)]
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".config-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    # A JSON string is a valid TOML basic string (the same escapes).
    return json.dumps(str(value), ensure_ascii=False)
