"""recollect-graph: a knowledge-memory system whose one store is Neo4j.

Example:
    >>> from recollect_graph import Recollect
    >>> with Recollect.open() as rg:  # doctest: +SKIP
    ...     rows = rg.query("SHOW INDEXES YIELD name, type RETURN name, type")
"""

from recollect_graph.errors import RecollectError
from recollect_graph.facade import Recollect
from recollect_graph.settings import Settings

__all__ = ["Recollect", "RecollectError", "Settings", "__version__"]
__version__ = "0.1.0"
