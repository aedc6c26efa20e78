"""The project's error types.

Every error the library raises on purpose is a :class:`RecollectError`. Each subclass carries what
failed, and its message is one line a user can act on. The CLI prints that line and exits non-zero;
it never shows a traceback for these.
"""

from __future__ import annotations

from typing import ClassVar, Literal

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
    """No Java runtime that fits the embedded Neo4j version was found."""

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


class StoreVersionMismatch(DataDirError):
    """The data directory's store was written by a Neo4j version this server must not open."""

    code = "store_version"

    def __init__(self, message: str, *, store_version: str, server_version: str) -> None:
        super().__init__(message)
        self.store_version = store_version
        self.server_version = server_version


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


class ForbiddenQuery(ReadOnlyViolation):
    """The analyst's own Cypher used a clause or procedure outside its allow-list.

    For example LOAD CSV (local files and URLs), a procedure not on the read-only allow-list,
    ``TERMINATE TRANSACTIONS`` or ``SHOW TRANSACTIONS`` (see ``docs/security.md``).
    """

    code = "forbidden_query"


#: What resolves a :class:`SchemaMismatch`: ``migrate`` (apply the migrations the graph lacks, safe
#: to do automatically), ``reset_vector_indexes`` (another embedding model or size: rebuild the
#: vector indexes and re-embed), ``wait_for_indexes`` (indexes still populating: run ``init``
#: again) or ``match_model`` (an export made with another model: import it into a database built
#: for that model).
SchemaRemedy = Literal["migrate", "reset_vector_indexes", "wait_for_indexes", "match_model"]


class SchemaMismatch(RecollectError):
    """The graph's schema does not match what this version and configuration expect.

    Args:
        message: The one line shown to the user (it says what to run).
        remedy: What resolves it (see :data:`SchemaRemedy`); ``Recollect.open`` applies the
            migrations by itself only for ``migrate``.
        command: The command that applies the remedy, when one does.
    """

    code = "schema_mismatch"

    def __init__(self, message: str, *, remedy: SchemaRemedy, command: str | None = None) -> None:
        super().__init__(message)
        self.remedy: SchemaRemedy = remedy
        self.command = command


class CypherFileError(RecollectError):
    """A file under ``cypher/`` is missing or its header does not match its body."""

    code = "cypher_file"


class ModelUnavailable(RecollectError):
    """An NLP model (embedding or spaCy pipeline) could not be loaded."""

    code = "model_missing"


class InvalidInput(RecollectError):
    """Caller input was refused before anything was written."""

    code = "invalid_input"


class NotFound(InvalidInput):
    """Base of every "no such thing" error: one subclass per kind of thing looked for.

    All report the code ``not_found`` (in ``--json`` output and MCP tool errors). The message
    names the kind and the id (at most 100 characters of it), and the scope when one is given:
    ``no session 's1' in scope 'me'``, ``no entry with id '...'``.

    Args:
        id: What was looked for (an id, or a name or label where the lookup accepts one).
        scope_id: The scope it was looked for in, when the message should say so.
    """

    code = "not_found"
    #: What was looked for, as the message names it.
    kind: ClassVar[str] = "thing"
    #: Whether the message says "no <kind> with id ..." (ids only) or "no <kind> ...".
    by_id: ClassVar[bool] = False

    def __init__(self, id: str, *, scope_id: str | None = None) -> None:
        self.id = id
        self.scope_id = scope_id
        super().__init__(self.describe())

    def describe(self) -> str:
        """The message: what was looked for, and where."""
        shown = self.id if len(self.id) <= 100 else self.id[:100] + "..."
        where = f" in scope {self.scope_id!r}" if self.scope_id else ""
        return f"no {self.kind}{' with id' if self.by_id else ''} {shown!r}{where}"


class EntryNotFound(NotFound):
    """No entry with that id (in that scope)."""

    kind = "entry"
    by_id = True

    def __init__(self, entry_id: str, *, scope_id: str | None = None) -> None:
        super().__init__(entry_id, scope_id=scope_id)
        self.entry_id = entry_id


class NodeNotFound(NotFound):
    """No node of any label with that id (in that scope)."""

    kind = "node"
    by_id = True


class SessionNotFound(NotFound):
    """No session with that id in the scope."""

    kind = "session"


class TopicNotFound(NotFound):
    """No topic with that id or label in the scope."""

    kind = "topic"


class DocumentNotFound(NotFound):
    """No document of that id (or source id, title or path) in the scope."""

    kind = "document"


class PipelineRunNotFound(NotFound):
    """No document pipeline run with that id in the scope."""

    kind = "pipeline run"


class EntityNotFound(NotFound):
    """No entity of that id, name or alias in the scope."""

    kind = "entity"


class OperationNotFound(NotFound):
    """No undoable operation with that id."""

    kind = "operation"
    by_id = True


class EntityMergeNotFound(OperationNotFound):
    """No entity merge operation with that id in the scope."""

    kind = "entity merge"
    by_id = False


class SuggestionNotFound(NotFound):
    """No link suggestion with that id in the scope."""

    kind = "link suggestion"


class ContradictionNotFound(NotFound):
    """No contradiction recorded between two entries."""

    kind = "contradiction"

    def __init__(self, a: str, b: str) -> None:
        self.pair = (a, b)
        super().__init__(f"{a} and {b}")

    def describe(self) -> str:
        """The message: the two entries."""
        return f"no {self.kind} between {self.pair[0]} and {self.pair[1]}"


class NothingToSupersede(InvalidInput):
    """``supersede(entity, relation, value)`` found no current claim of that slot: nothing changed.

    Attributes:
        closest: The scope's closest claims (entry id, content, subject, predicate, object).
    """

    code = "nothing_to_supersede"

    def __init__(self, message: str, closest: list[dict[str, str]]) -> None:
        self.closest = closest
        super().__init__(message)


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
