"""The project's error types.

Every error the library raises on purpose is a :class:`RecollectError`. Each subclass carries what
failed, and its message is one line a user can act on. The CLI prints that line and exits non-zero;
it never shows a traceback for these.
"""

from __future__ import annotations

#: The longest message an error carries; longer text (a driver's dump, a huge id) is cut.
MAX_MESSAGE = 900


def one_line(text: object, limit: int = MAX_MESSAGE) -> str:
    """``text`` as one line, at most ``limit`` characters.

    Line breaks (and the spaces around them) become one space; longer text ends in an ellipsis.
    """
    flat = " ".join(part.strip() for part in str(text).splitlines() if part.strip())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


class RecollectError(Exception):
    """Base class of every error recollect-graph raises on purpose.

    Its message is always one line (at most :data:`MAX_MESSAGE` characters), whatever text it
    is given: a driver's multi-line message or a statement echoed by Neo4j is flattened.
    """

    #: Short machine-readable code, stable across versions (used by ``--json`` output).
    code = "error"

    def __init__(self, *args: object) -> None:
        if args:
            args = (one_line(args[0]), *args[1:])
        super().__init__(*args)


class ConfigError(RecollectError):
    """A setting is missing or invalid."""

    code = "config"


class ServerError(RecollectError):
    """The local Neo4j server could not be built, started, stopped or reached."""

    code = "server"


class JavaNotFound(ServerError):
    """No Java 17+ runtime was found."""

    code = "java_missing"


class MavenNotFound(ServerError):
    """Maven is needed to build the embedded Neo4j and was not found."""

    code = "maven_missing"


class PortInUse(ServerError):
    """A port the local server needs is taken by another process."""

    code = "port_in_use"

    def __init__(self, message: str, *, port: int) -> None:
        super().__init__(message)
        self.port = port


class DataDirError(ServerError):
    """The data directory cannot be created, read or written."""

    code = "data_dir"


class DatabaseUnavailable(RecollectError):
    """Neo4j could not be reached (after the driver's retries)."""

    code = "unavailable"


class AuthFailed(RecollectError):
    """Neo4j refused the credentials."""

    code = "auth"


class QueryError(RecollectError):
    """Neo4j rejected a statement (syntax, semantics or a constraint)."""

    code = "query"

    def __init__(self, message: str, *, neo4j_code: str | None = None) -> None:
        super().__init__(message)
        self.neo4j_code = neo4j_code


class ConstraintViolation(QueryError):
    """A write broke a uniqueness constraint."""

    code = "constraint"


class ReadOnlyViolation(QueryError):
    """A write was attempted through a read-only path."""

    code = "read_only"


class SchemaMismatch(RecollectError):
    """The graph's schema does not match what this version and configuration expect."""

    code = "schema_mismatch"


class CypherFileError(RecollectError):
    """A file under ``cypher/`` is missing or its header does not match its body."""

    code = "cypher_file"


class ModelUnavailable(RecollectError):
    """An NLP model (embedding or spaCy pipeline) could not be loaded."""

    code = "model_missing"


class InvalidInput(RecollectError):
    """Caller input was refused before anything was written."""

    code = "invalid_input"


class EntryNotFound(InvalidInput):
    """No entry with that id (in that scope)."""

    code = "not_found"

    def __init__(self, entry_id: str) -> None:
        shown = entry_id if len(entry_id) <= 100 else entry_id[:100] + "..."
        super().__init__(f"no entry with id {shown!r}")
        self.entry_id = entry_id


class ScopeViolation(InvalidInput):
    """An operation would cross scopes."""

    code = "scope_violation"


class ContradictionFound(InvalidInput):
    """``remember(..., on_conflict="reject")`` found contradictions; nothing was written."""

    code = "contradiction"

    def __init__(self, conflicts: list[dict[str, object]]) -> None:
        first = conflicts[0]
        super().__init__(
            f"{len(conflicts)} contradiction(s) with current knowledge, e.g. {first['type']}: "
            f"{first['reason']} (entry {first['entry_id']}); nothing was written"
        )
        self.conflicts = conflicts
