"""Which learners exist: the built-ins, and third-party ones from the entry-point group.

A package registers a learner in its ``pyproject.toml``::

    [project.entry-points."recollect_graph.learners"]
    jira = "my_package.jira:JiraLearner"

The entry point names a class (or any callable) that, called with keyword options, returns an
object implementing :class:`~recollect_graph.learners.base.Learner`. A plugin that cannot be
imported, or whose object is not a learner, is reported by name with the reason.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from recollect_graph.learners.base import SOURCE_NAME, Learner, LearnerPluginError

GROUP = "recollect_graph.learners"

#: name -> "module:attribute" of the built-in learners (imported when used).
BUILTINS: dict[str, str] = {
    "git": "recollect_graph.learners.git:GitLearner",
    "shell": "recollect_graph.learners.shell:ShellLearner",
    "ci": "recollect_graph.learners.ci:CiLearner",
    "notes": "recollect_graph.learners.notes:NotesLearner",
}

Factory = Callable[..., Any]


@dataclass(frozen=True)
class LearnerInfo:
    """One available learner.

    Attributes:
        name: The source name (``learn run --source NAME``).
        origin: ``built-in`` or ``plugin``.
        target: ``module:attribute`` it loads.
        distribution: The installed package that declares it (plugins).
        ok: Whether it loads.
        description: The first line of its docstring, or why it does not load.
    """

    name: str
    origin: str
    target: str
    distribution: str | None
    ok: bool
    description: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {
            "name": self.name,
            "origin": self.origin,
            "target": self.target,
            "distribution": self.distribution,
            "ok": self.ok,
            "description": self.description,
        }


def _load_target(target: str) -> Factory:
    module, _, attr = target.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split(".") if attr else []:
        obj = getattr(obj, part)
    if not callable(obj):
        raise TypeError(f"{target} is not callable")
    return obj  # type: ignore[no-any-return]


def _plugins() -> dict[str, metadata.EntryPoint]:
    found: dict[str, metadata.EntryPoint] = {}
    for ep in metadata.entry_points(group=GROUP):
        if BUILTINS.get(ep.name) == ep.value:
            continue  # this package's own declaration of a built-in
        found.setdefault(ep.name, ep)
    return found


def _dist_name(ep: metadata.EntryPoint) -> str | None:
    dist = getattr(ep, "dist", None)
    return getattr(dist, "name", None) if dist is not None else None


def _describe(obj: Any) -> str:
    doc = (getattr(obj, "__doc__", None) or "").strip()
    return doc.splitlines()[0] if doc else ""


def names() -> list[str]:
    """Names of every learner, built-ins first."""
    return [*BUILTINS, *sorted(n for n in _plugins() if n not in BUILTINS)]


def factory(name: str) -> Factory:
    """The class (or callable) that makes the learner called ``name``.

    Raises:
        LearnerPluginError: Unknown name, a plugin that fails to import, or a plugin that tries
            to replace a built-in.
    """
    if name in BUILTINS:
        plugin = _plugins().get(name)
        if plugin is not None:
            raise LearnerPluginError(
                f"learner plugin {name!r} ({plugin.value}, from {_dist_name(plugin) or '?'}) "
                f"has the name of a built-in learner; rename its entry point"
            )
        return _load_target(BUILTINS[name])
    ep = _plugins().get(name)
    if ep is None:
        raise LearnerPluginError(
            f"no learner called {name!r}; known learners: {', '.join(names())}"
        )
    try:
        obj = ep.load()
    except Exception as e:
        raise LearnerPluginError(
            f"learner plugin {name!r} ({ep.value}, from {_dist_name(ep) or '?'}) failed to load: "
            f"{type(e).__name__}: {e}"
        ) from e
    if not callable(obj):
        raise LearnerPluginError(
            f"learner plugin {name!r} ({ep.value}) is not a class or callable that makes a learner"
        )
    return obj  # type: ignore[no-any-return]


def create(name: str, **options: Any) -> Learner:
    """Make the learner called ``name`` with its options (e.g. ``repo=`` for git).

    Raises:
        LearnerPluginError: See :func:`factory`, or the object made is not a learner.
        LearnerError: The learner refused its options (a path that does not exist...).
    """
    made = factory(name)(**options)
    return check_learner(made, name)


def check_learner(obj: Any, name: str | None = None) -> Learner:
    """``obj`` if it behaves like a learner with a valid source name; else a clear error."""
    label = f"learner {name!r}" if name else f"learner {type(obj).__name__}"
    missing = [
        m for m in ("source", "fetch_since", "extract") if not callable(getattr(obj, m, None))
    ]
    if missing:
        raise LearnerPluginError(f"{label} does not implement {', '.join(missing)}")
    source = obj.source()
    if not isinstance(source, str) or not SOURCE_NAME.match(source):
        raise LearnerPluginError(
            f"{label}: source() must return a lower-case name like 'git' (got {source!r})"
        )
    assert isinstance(obj, Learner)
    return obj


def available() -> list[LearnerInfo]:
    """Every learner with where it comes from and whether it loads (never raises)."""
    out: list[LearnerInfo] = []
    for name, target in BUILTINS.items():
        try:
            desc = _describe(_load_target(target))
            ok = True
        except Exception as e:  # a broken built-in is a bug, but listing must still work
            desc, ok = f"{type(e).__name__}: {e}", False
        out.append(LearnerInfo(name, "built-in", target, "recollect-graph", ok, desc))
    for name, ep in sorted(_plugins().items()):
        try:
            if name in BUILTINS:
                raise LearnerPluginError("has the name of a built-in learner")
            desc, ok = _describe(ep.load()), True
        except Exception as e:
            desc, ok = f"failed to load: {type(e).__name__}: {e}", False
        out.append(LearnerInfo(name, "plugin", ep.value, _dist_name(ep), ok, desc))
    return out
