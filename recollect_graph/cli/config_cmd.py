"""The ``config`` group: show the effective settings, read and write the config files."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from recollect_graph import config_file
from recollect_graph.cli.output import emit_json, handle_errors, json_option
from recollect_graph.errors import ConfigError
from recollect_graph.settings import ENV_VARS, Settings

_KEY_HELP = "One of: " + ", ".join(sorted(config_file.KEYS)) + "."


def _sources(files: config_file.LayeredFiles, settings: Settings) -> dict[str, str]:
    """Settings field -> where its value comes from: env, file, model profile or default."""
    from recollect_graph.nlp.model_profiles import profile_of

    own = {k for k, _ in profile_of(settings.embedding_model).settings}
    env_of = {field: var for var, field in ENV_VARS.items()}
    out: dict[str, str] = {}
    for field in Settings.model_fields:
        var = env_of.get(field)
        key = next((k for k, f in config_file.KEYS.items() if f == field), None)
        if var and (os.environ.get(var) or "").strip():
            out[field] = f"env {var}"
        elif key and files.source(key):
            out[field] = str(files.source(key))
        elif field in own:
            out[field] = f"model {settings.embedding_model}"
        else:
            out[field] = "default"
    return out


def _effective() -> Settings:
    """The settings as the library uses them: with the embedding model's own defaults."""
    from recollect_graph.nlp.model_profiles import for_model

    return for_model(Settings.from_env())


def _show(as_json: bool) -> None:
    files = config_file.layered()
    settings = _effective()
    data: dict[str, Any] = settings.masked()
    data["config_files"] = {
        "user": str(files.user_path),
        "project": str(files.project_path) if files.project_path else None,
    }
    data["sources"] = _sources(files, settings)
    if as_json:
        emit_json(data)
        return
    sources = data.pop("sources")
    width = max(len(k) for k in data)
    for k, v in data.items():
        origin = sources.get(k)
        note = f"  ({origin})" if origin and origin != "default" else ""
        click.echo(f"{k.ljust(width)}  {v}{note}")


@click.group("config", invoke_without_command=True)
@json_option
@click.pass_context
@handle_errors
def config_group(ctx: click.Context, as_json: bool) -> None:
    """Show the effective settings (secrets masked); read and write the config files.

    Precedence, highest first: a flag, the environment, the project file (.recollect-graph.toml
    in this directory or a parent), the user file (config.toml in the config directory), the
    default. With a default scope configured, commands that need --scope use it when it is left
    out; --owner defaults to the configured owner, else the OS user. With no subcommand: `show`.

    \b
    Example:
      recollect-graph config set scope app && recollect-graph config --json
    """
    if ctx.invoked_subcommand is None:
        _show(as_json)


@config_group.command("show")
@json_option
@handle_errors
def show_cmd(as_json: bool) -> None:
    """Print every effective setting, where it comes from, and the config files' paths.

    \b
    Example:
      NEO4J_URI=bolt://127.0.0.1:7687 recollect-graph config show --json
    """
    _show(as_json)


def _target(project: bool) -> Path:
    if not project:
        return config_file.user_file()
    return config_file.project_file() or Path.cwd() / config_file.PROJECT_FILE


@config_group.command("get")
@click.argument("key")
@json_option
@handle_errors
def get_cmd(key: str, as_json: bool) -> None:
    """Print the effective value of one config key (after flags, env and files).

    \b
    Example:
      recollect-graph config get scope --json
    """
    config_file.check_key(key)
    files = config_file.layered()
    field = config_file.KEYS[key]
    settings = _effective()
    value = settings.masked()[field]
    source = _sources(files, settings)[field]
    if as_json:
        emit_json({"key": key, "value": value, "source": source})
    else:
        click.echo("" if value is None else str(value))


@config_group.command("set")
@click.argument("key")
@click.argument("value")
@click.option(
    "--project",
    is_flag=True,
    help="Write the project file (the nearest .recollect-graph.toml, else one here) instead.",
)
@json_option
@handle_errors
def set_cmd(key: str, value: str, project: bool, as_json: bool) -> None:
    """Set a default in a config file (written atomically; the value is checked first).

    KEY is one of the keys `config` lists (scope, owner, uri, ...); the password is never kept
    in a file.

    \b
    Example:
      recollect-graph config set scope app && recollect-graph config set owner kai
    """
    config_file.check_key(key)
    field = config_file.KEYS[key]
    if not value.strip():
        raise ConfigError(f"{key}: the value is empty (to remove it: recollect-graph config unset)")
    try:
        overrides: dict[str, Any] = {field: value}
        checked = Settings.from_env(environ={}, **overrides)
    except ConfigError as e:
        raise ConfigError(str(e).replace(f"setting {field}=", f"value for {key}: ")) from e
    stored = getattr(checked, field)
    stored = str(stored) if isinstance(stored, Path) else stored
    path = _target(project)
    values = config_file.read(path)
    values[key] = stored
    config_file.write(path, values)
    if as_json:
        emit_json({"key": key, "value": stored, "file": str(path)})
    else:
        click.echo(f"{key} = {stored!r} in {path}")


@config_group.command("unset")
@click.argument("key")
@click.option("--project", is_flag=True, help="Edit the project file instead of the user file.")
@json_option
@handle_errors
def unset_cmd(key: str, project: bool, as_json: bool) -> None:
    """Remove a key from a config file (nothing happens when it is not there).

    \b
    Example:
      recollect-graph config unset scope
    """
    config_file.check_key(key)
    path = _target(project)
    values = config_file.read(path)
    removed = values.pop(key, None) is not None
    if removed:
        config_file.write(path, values)
    if as_json:
        emit_json({"key": key, "removed": removed, "file": str(path)})
    else:
        click.echo(f"{key} removed from {path}" if removed else f"{key} was not set in {path}")
