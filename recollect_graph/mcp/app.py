"""The MCP server's core: strict argument checks, one error shape, typed answers, tool subsets.

:class:`StrictServer` is the SDK's :class:`~mcp.server.mcpserver.MCPServer` with three rules of its
own: an argument a tool does not declare is refused, an argument that breaks the tool's input
schema is refused with a short ``field: problem`` line (never pydantic's raw text and URL), and
every refusal or failure is the same ``{"error": {"code", "message"}}`` object, as the text of a
result with ``isError: true``. :class:`Toolbox` registers a tool only when it is in
the served subset (``--tools``) and validates each answer against the tool's output model, which
is also its ``outputSchema``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ValidationError

from recollect_graph.errors import RecollectError

if TYPE_CHECKING:
    from mcp.server.mcpserver.context import Context

    from recollect_graph.mcp.tools import Body, MemoryTools

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Any])

READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
DELETE = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)


def error_result(code: str, message: str) -> CallToolResult:
    """A tool error the agent can read: ``{"error": {"code", "message"}}`` with ``isError``.

    The object is the text content only: clients (the TypeScript SDK, the MCP Inspector) check
    any structured content against the tool's ``outputSchema``, which describes success.

    Example:
        >>> error_result("not_found", "no entry with id 'x'").is_error
        True
    """
    data = {"error": {"code": code, "message": message}}
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(data, ensure_ascii=False))],
        is_error=True,
    )


def ok_result(data: dict[str, Any]) -> CallToolResult:
    """A successful answer: the same JSON object as text and as structured content."""
    text = json.dumps(data, ensure_ascii=False, default=str)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def describe_validation(err: ValidationError, limit: int = 5) -> str:
    """``field: problem`` for each of the first ``limit`` problems, on one line, no URLs.

    Example:
        >>> from pydantic import BaseModel, Field
        >>> class M(BaseModel):
        ...     limit: int = Field(le=50)
        >>> try:
        ...     M(limit=999)
        ... except ValidationError as e:
        ...     describe_validation(e)
        'limit: Input should be less than or equal to 50'
    """
    parts = []
    for e in err.errors(include_url=False)[:limit]:
        loc = ".".join(str(p) for p in e["loc"]) or "arguments"
        parts.append(f"{loc}: {e['msg']}")
    more = err.error_count() - limit
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


def compact_schema(schema: Any, *, output: bool = False) -> None:
    """Shrink a pydantic JSON schema in place without changing what it accepts or promises.

    Drops what costs an agent tokens and tells it nothing: the ``title`` pydantic writes on every
    node (it repeats the name), ``"default": null``, and, in an input schema, the
    ``anyOf [X, null]`` of an optional argument (optional already: not required; a null is still
    accepted). In an output schema, where null is a value the answer may hold, the union stays,
    and the models' docstrings and the default ``additionalProperties: true`` go. Walks only
    schema positions, so a property that is *named* ``title`` stays.
    """
    if not isinstance(schema, dict):
        return
    any_of = schema.get("anyOf")
    if not output and isinstance(any_of, list) and len(any_of) == 2 and {"type": "null"} in any_of:
        (other,) = [a for a in any_of if a != {"type": "null"}]
        del schema["anyOf"]
        schema.update({k: v for k, v in other.items() if k not in schema})
    if isinstance(schema.get("title"), str):
        del schema["title"]
    if "default" in schema and schema["default"] is None:
        del schema["default"]
    if output:
        if "properties" in schema:
            schema.pop("description", None)
        if schema.get("additionalProperties") is True:
            del schema["additionalProperties"]
    for key in ("properties", "$defs"):
        for sub in (schema.get(key) or {}).values():
            compact_schema(sub, output=output)
    for key in ("anyOf", "allOf", "oneOf", "prefixItems"):
        for sub in schema.get(key) or []:
            compact_schema(sub, output=output)
    for key in ("items", "additionalProperties"):
        compact_schema(schema.get(key), output=output)


class StrictServer(MCPServer):
    """An :class:`MCPServer` that refuses unknown arguments and answers every error in one shape.

    ``after_listing`` (if set) runs once, right after the first ``tools/list`` is answered: the
    server starts warming the model there, so the import of torch and spaCy does not compete
    with the start-up handshake for the interpreter lock.
    """

    after_listing: Callable[[], None] | None = None

    async def list_tools(self) -> Any:
        """The tools; the first call also fires :attr:`after_listing`."""
        listed = await super().list_tools()
        hook, self.after_listing = self.after_listing, None
        if hook is not None:
            hook()
        return listed

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> Any:
        """Check the arguments' names, then run the tool; refusals become :func:`error_result`."""
        tool = self._tool_manager.get_tool(name)
        if tool is None:
            return error_result("not_found", f"no tool named {name!r}")
        known = set(tool.parameters.get("properties", {}))
        unknown = sorted(set(arguments) - known)
        if unknown:
            takes = ", ".join(sorted(known)) or "no arguments"
            return error_result(
                "invalid_input",
                f"unknown argument(s) {', '.join(unknown)}; {name} takes: {takes}",
            )
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as e:
            cause = e.__cause__
            if isinstance(cause, ValidationError) and not isinstance(e, UnexpectedToolError):
                log.info("%s refused its arguments: %s", name, describe_validation(cause))
                return error_result("invalid_input", describe_validation(cause))
            log.warning("%s failed: %s", name, e)
            return error_result("internal", f"{name} failed")


class Toolbox:
    """Registers the served tools on a server and runs their bodies on the bound facade.

    Args:
        server: The server the tools are added to.
        tools: The facade holder every tool body runs on.
        selected: The names of the tools to serve (the others are skipped).
    """

    def __init__(self, server: MCPServer, tools: MemoryTools, selected: Collection[str]) -> None:
        self.server = server
        self.tools = tools
        self.selected = frozenset(selected)
        self.outputs: dict[str, type[BaseModel]] = {}

    def tool(
        self,
        name: str,
        *,
        title: str,
        description: str,
        output: type[BaseModel],
        annotations: ToolAnnotations = READ,
    ) -> Callable[[F], F]:
        """Declare a tool answering ``output`` (its ``outputSchema``); skipped if not served."""

        def decorator(fn: F) -> F:
            if name not in self.selected:
                return fn
            fn.__annotations__["return"] = Annotated[CallToolResult, output]
            self.outputs[name] = output
            self.server.tool(
                name=name, title=title, description=description, annotations=annotations
            )(fn)
            tool = self.server._tool_manager.get_tool(name)
            if tool is not None:
                tool.parameters["additionalProperties"] = False  # what StrictServer enforces
                compact_schema(tool.parameters)
                if tool.fn_metadata.output_schema is not None:
                    compact_schema(tool.fn_metadata.output_schema, output=True)
            return fn

        return decorator

    async def run(self, name: str, body: Body) -> CallToolResult:
        """Run a tool body on a worker thread; every failure becomes a tool error, never a crash."""
        try:
            data = await anyio.to_thread.run_sync(self.tools.call, body)
        except RecollectError as e:
            log.info("%s refused: %s", name, e)
            return error_result(e.code, str(e))
        except Exception as e:
            log.exception("%s failed", name)
            return error_result("internal", f"{type(e).__name__}: {e}")
        model = self.outputs.get(name)
        if model is not None:
            try:
                model.model_validate(data)
            except ValidationError as e:
                log.error("%s answered outside its output schema: %s", name, e)
                return error_result(
                    "internal", f"{name}'s answer broke its output schema: {describe_validation(e)}"
                )
        return ok_result(data)
