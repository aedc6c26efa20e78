"""recollect-graph: a knowledge-memory system whose one store is Neo4j.

Example:
    >>> from recollect_graph import Recollect
    >>> with Recollect.open() as rg:  # doctest: +SKIP
    ...     rows = rg.query("SHOW INDEXES YIELD name, type RETURN name, type")

The names below are loaded on first use, so that importing a light part of the package (the
command line's ``--help``, the settings, the errors) does not load the driver, spaCy or torch.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from recollect_graph.errors import RecollectError
    from recollect_graph.facade import Recollect
    from recollect_graph.settings import Settings

__all__ = ["Recollect", "RecollectError", "Settings", "__version__"]
__version__ = "0.1.0"

#: Where each lazily exported name lives.
_LAZY = {
    "Recollect": "recollect_graph.facade",
    "RecollectError": "recollect_graph.errors",
    "Settings": "recollect_graph.settings",
}


def __getattr__(name: str) -> Any:
    """Load ``Recollect``, ``RecollectError`` and ``Settings`` when first asked for."""
    if name in _LAZY:
        value = getattr(import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'recollect_graph' has no attribute {name!r}")
