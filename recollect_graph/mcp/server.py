"""The MCP server: Lore's memory tools and Recollect's knowledge tools over stdio.

Every tool is bound to one scope and owner, fixed at start-up from the settings
(``RECOLLECT_SCOPE`` / ``RECOLLECT_OWNER``, or ``recollect-graph mcp --scope/--owner``). Results are
JSON objects (as text and as structured content), bounded in size; a refused or failed call comes
back as a tool error (``isError: true``) whose text is ``{"error": {"code", "message"}}``, and the
server keeps answering.

Example:
    >>> from recollect_graph.settings import Settings
    >>> server = build_server(MemoryTools(Settings(default_scope="app")))  # doctest: +SKIP
    >>> server.run("stdio")  # doctest: +SKIP
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Annotated, Any, Literal

import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from recollect_graph import __version__
from recollect_graph.errors import RecollectError
from recollect_graph.facade import Memories, Recollect
from recollect_graph.mcp.tools import Body, MemoryTools
from recollect_graph.settings import Settings

log = logging.getLogger(__name__)

#: The tools this server offers, in the order it lists them.
TOOL_NAMES = (
    "lore_search",
    "lore_insert",
    "lore_suggest_links",
    "lore_capture",
    "lore_feedback",
    "lore_delete",
    "lore_pending_suggestions",
    "lore_review_suggestion",
    "lore_reflect",
    "lore_list_processed_sessions",
    "recollect_remember",
    "recollect_search",
    "recollect_check_contradiction",
    "recollect_recall",
    "recollect_context",
)

SourceType = Literal["observed", "inferred", "user_stated", "consolidated", "injected"]
DeleteReason = Literal["duplicate", "hallucinated", "outdated", "expired", "unspecified"]
#: Short statements of a reflection (each becomes a memory or a field of the reflection).
Statements = Annotated[list[str], Field(max_length=50, description="Short statements.")]

_READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
_WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
_DELETE = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)

INSTRUCTIONS = """\
Long-term memory for this project, kept in a knowledge graph. Every tool works in one scope \
({scope}) as owner {owner}; nothing outside that scope is visible.
Before a task: lore_search (or recollect_search) for what is already known. After learning \
something durable (a decision, a root cause, a user preference, a gotcha): lore_capture one \
thought or lore_insert titled memories; rate what helped with lore_feedback. At the end of a \
session: lore_reflect once. Long text in results is cut to 2000 characters and marked \
"truncated": true; fetch a memory in full with lore_search(ids=[...]).\
"""


def _result(data: dict[str, Any]) -> CallToolResult:
    text = json.dumps(data, ensure_ascii=False, default=str)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def error_result(code: str, message: str) -> CallToolResult:
    """A tool error the agent can read: ``{"error": {"code", "message"}}`` with ``isError``."""
    data = {"error": {"code": code, "message": message}}
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(data, ensure_ascii=False))],
        is_error=True,
    )


async def run_tool(tools: MemoryTools, name: str, body: Body) -> CallToolResult:
    """Run a tool body on a worker thread; every failure becomes a tool error, never a crash."""
    try:
        data = await anyio.to_thread.run_sync(tools.call, body)
    except RecollectError as e:
        log.info("%s refused: %s", name, e)
        return error_result(e.code, str(e))
    except Exception as e:
        log.exception("%s failed", name)
        return error_result("internal", f"{type(e).__name__}: {e}")
    return _result(data)


def build_server(tools: MemoryTools) -> MCPServer:
    """The MCP server with every tool of :data:`TOOL_NAMES` bound to ``tools``' scope."""
    server: MCPServer = MCPServer(
        "recollect-graph",
        title="recollect-graph memory",
        version=__version__,
        instructions=INSTRUCTIONS.format(scope=tools.scope_id, owner=tools.owner_id),
        log_level="WARNING",
    )

    async def run(name: str, body: Body) -> CallToolResult:
        return await run_tool(tools, name, body)

    # -- Lore's dialect: titled memories with a 0-10 score ------------------------------------
    @server.tool(
        name="lore_search",
        title="Search memories",
        annotations=_READ,
        description=(
            "Search this project's memories by meaning and keywords (hybrid ranking), or fetch "
            "memories by id. Call it before starting a task, before answering from memory, and "
            "to fetch a memory in full (ids=[...]). Returns {results, total_matched, query}: with "
            "format='full' each result is {memory: {id, title, description, content, score 0-10, "
            "tags, source_type, usage_count, ...}, relevance: {combined_score, semantic_score, "
            "keyword_score, graph_score, ...}, links: [...]}; with format='title' it is "
            "{id, title, score}. Content over 2000 characters is cut and the memory carries "
            "truncated=true. Soft-deleted memories are hidden unless include_deleted."
        ),
    )
    async def lore_search(
        query: Annotated[str, Field(description="What to look for (required unless ids).")] = "",
        ids: Annotated[
            list[str] | None,
            Field(description="Fetch these memory ids in this order instead of searching (<=50)."),
        ] = None,
        limit: Annotated[int, Field(ge=1, le=50, description="Most results.")] = 10,
        min_score: Annotated[
            float, Field(ge=0, description="Drop results below this combined score.")
        ] = 0.0,
        include_links: Annotated[bool, Field(description="Add each memory's links.")] = True,
        format: Annotated[
            Literal["full", "title"], Field(description="'title' for a compact list.")
        ] = "full",
        sort_by: Literal["relevance", "recent", "frequent"] = "relevance",
        include_deleted: bool = False,
        created_after: Annotated[
            str | None, Field(description="ISO 8601 date-time; only memories created since.")
        ] = None,
        source_type: SourceType | None = None,
    ) -> CallToolResult:
        def body(rg: Recollect, mem: Memories) -> Any:
            return mem.search(
                query,
                ids=ids,
                limit=limit,
                min_score=min_score,
                include_links=include_links,
                format=format,
                sort_by=sort_by,
                include_deleted=include_deleted,
                created_after=created_after,
                source_type=source_type,
            )

        return await run("lore_search", body)

    @server.tool(
        name="lore_insert",
        title="Insert memories",
        annotations=_WRITE,
        description=(
            "Store one or more titled memories (and links between memories) for later sessions. "
            "Use it for durable knowledge worth finding again: decisions with their reasons, root "
            "causes, conventions, user preferences, gotchas. Each memory is "
            "{title (required, unique in the project), content, description, score 0-10 "
            "(default 5), source_type, tags: [..], links: [{target_memory_id, relation_type, "
            "reason}]}; top-level links are {source_memory_id, target_memory_id, relation_type, "
            "reason}. relation_type is one of leads_to, supports, contradicts, derived_from, "
            "supersedes, related_to, references, depends_on, part_of, causes. A memory whose "
            "title exists or whose text is nearly the same as an existing one is reported under "
            "duplicates instead of inserted (force=true inserts anyway). Returns "
            "{inserted_memories: [{id, title}], inserted_links, duplicates, auto_links, errors}; "
            "each item succeeds or fails on its own."
        ),
    )
    async def lore_insert(
        memories: Annotated[
            list[dict[str, Any]], Field(min_length=1, max_length=50, description="Memories.")
        ],
        links: Annotated[
            list[dict[str, Any]], Field(max_length=200, description="Links between memories.")
        ] = [],  # noqa: B006 - pydantic copies the default; the schema shows []
        force: Annotated[bool, Field(description="Skip the duplicate check.")] = False,
    ) -> CallToolResult:
        return await run("lore_insert", lambda rg, mem: mem.insert(memories, links, force))

    @server.tool(
        name="lore_suggest_links",
        title="Suggest links for a memory",
        annotations=_READ,
        description=(
            "Propose typed links from one memory to related memories it is not yet linked to. "
            "Call it after inserting a memory to connect it to the graph; writes nothing (store "
            "the links you agree with via lore_insert's links). Returns the candidates best "
            "first, each with its per-signal scores (semantic, keyword, entities, temporal), a "
            "weighted score, and a suggested relation_type with the reason for it."
        ),
    )
    async def lore_suggest_links(
        memory_id: Annotated[str, Field(description="The memory to find links for.")],
        top_k: Annotated[int, Field(ge=1, le=50, description="Most candidates.")] = 10,
    ) -> CallToolResult:
        return await run(
            "lore_suggest_links", lambda rg, mem: mem.suggest_links(memory_id, top_k=top_k)
        )

    @server.tool(
        name="lore_capture",
        title="Capture a thought",
        annotations=_WRITE,
        description=(
            "Quickly save one thought (an insight, a fix that worked, a fact the user stated) as "
            "a memory; the title is derived from the text. Use it mid-task instead of "
            "lore_insert when one free-text note is enough. A near-duplicate of an existing "
            "memory is not stored again. Returns {id, title, duplicate: bool, linked_to: "
            "{id, score} | null} (linked_to: the very similar memory it was auto-linked to)."
        ),
    )
    async def lore_capture(
        thought: Annotated[str, Field(min_length=1, description="The thought, in plain text.")],
        source_type: Annotated[
            SourceType,
            Field(description="observed (default), inferred, user_stated, ... (provenance)."),
        ] = "observed",
    ) -> CallToolResult:
        return await run("lore_capture", lambda rg, mem: mem.capture(thought, source_type))

    @server.tool(
        name="lore_feedback",
        title="Rate memories and links",
        annotations=_WRITE,
        description=(
            "Tell the memory which memories and links actually helped (or misled) you, so good "
            "ones rank higher and bad ones fade. Call it after using search results. Items are "
            "{id, useful: true|false, confidence: 1-10 (how sure you are, default 10)}; "
            "memory_feedback takes memory ids, link_feedback link ids. A memory rated not useful "
            "with low confidence repeatedly is soft-deleted. Returns {updated_memories: [{id, "
            "score, feedback_confidence}], updated_links, soft_deleted_memories, errors}."
        ),
    )
    async def lore_feedback(
        memory_feedback: Annotated[
            list[dict[str, Any]], Field(max_length=100, description="[{id, useful, confidence}]")
        ] = [],  # noqa: B006 - pydantic copies the default; the schema shows []
        link_feedback: Annotated[
            list[dict[str, Any]], Field(max_length=100, description="[{id, useful, confidence}]")
        ] = [],  # noqa: B006 - pydantic copies the default; the schema shows []
    ) -> CallToolResult:
        return await run(
            "lore_feedback", lambda rg, mem: mem.feedback(memory_feedback, link_feedback)
        )

    @server.tool(
        name="lore_delete",
        title="Delete memories",
        annotations=_DELETE,
        description=(
            "Soft-delete memories that are wrong, outdated or duplicated, so search stops "
            "returning them (reversible by the user). reason is one of duplicate, hallucinated, "
            "outdated, expired, unspecified. Returns {forgotten: [ids], not_found: [ids], "
            "operation_id}."
        ),
    )
    async def lore_delete(
        memory_ids: Annotated[list[str], Field(min_length=1, max_length=50)],
        reason: Annotated[DeleteReason, Field(description="Why they are deleted.")] = "unspecified",
    ) -> CallToolResult:
        return await run("lore_delete", lambda rg, mem: mem.delete(memory_ids, reason))

    @server.tool(
        name="lore_pending_suggestions",
        title="List pending link suggestions",
        annotations=_READ,
        description=(
            "List the link suggestions that the sweep (`recollect-graph sweep`) queued and nobody "
            "has reviewed yet, best first. Call it when asked to tidy or connect the memory "
            "graph, then accept or reject them with lore_review_suggestion. Returns "
            "{suggestions: [{id, from_id, from_title, to_id, to_title, relation_type, reason, "
            "weighted_score, confidence, ...}], count, total_pending}."
        ),
    )
    async def lore_pending_suggestions(
        limit: Annotated[int, Field(ge=1, le=100, description="Most suggestions.")] = 20,
        min_score: Annotated[
            float, Field(ge=0, description="Drop suggestions below this weighted score.")
        ] = 0.0,
    ) -> CallToolResult:
        return await run(
            "lore_pending_suggestions",
            lambda rg, mem: mem.pending_suggestions(limit=limit, min_score=min_score),
        )

    @server.tool(
        name="lore_review_suggestion",
        title="Accept or reject link suggestions",
        annotations=_WRITE,
        description=(
            "Accept or reject pending link suggestions (ids from lore_pending_suggestions). "
            "Each review is {id, action: 'accept'|'reject', relation_type (optional: overrides "
            "the suggested type on accept)}; accepting creates the link, and reviews are final "
            "(a repeat is skipped). Returns {results: [{id, status: accepted|rejected|skipped|"
            "error, message?, relation_type?}]}, one per review."
        ),
    )
    async def lore_review_suggestion(
        reviews: Annotated[
            list[dict[str, Any]],
            Field(min_length=1, max_length=100, description="[{id, action, relation_type?}]"),
        ],
    ) -> CallToolResult:
        return await run("lore_review_suggestion", lambda rg, mem: mem.review_suggestions(reviews))

    @server.tool(
        name="lore_reflect",
        title="Reflect on a session",
        annotations=_WRITE,
        description=(
            "Record what a work session taught, once, at its end: a summary plus lists of short "
            "statements (lessons, discoveries, good_patterns, user_profile_updates, decisions). "
            "Lessons, discoveries and decisions become memories linked to the session. "
            "Idempotent per session_id (a repeat changes nothing); "
            "lore_list_processed_sessions tells which sessions are done. Returns {session_id, "
            "reflection_id, created, memory_ids}."
        ),
    )
    async def lore_reflect(
        session_id: Annotated[str, Field(min_length=1, description="The session's id.")],
        summary: Annotated[str, Field(min_length=1, description="What the session did.")],
        lessons: Statements = [],  # noqa: B006 - pydantic copies the default; the schema shows []
        discoveries: Statements = [],  # noqa: B006
        good_patterns: Statements = [],  # noqa: B006
        user_profile_updates: Statements = [],  # noqa: B006
        decisions: Statements = [],  # noqa: B006
    ) -> CallToolResult:
        def body(rg: Recollect, mem: Memories) -> Any:
            return mem.reflect(
                session_id,
                summary,
                lessons=lessons,
                discoveries=discoveries,
                good_patterns=good_patterns,
                user_profile_updates=user_profile_updates,
                decisions=decisions,
            )

        return await run("lore_reflect", body)

    @server.tool(
        name="lore_list_processed_sessions",
        title="List reflected sessions",
        annotations=_READ,
        description=(
            "List the sessions already reflected on (lore_reflect), newest first, so a session "
            "is not processed twice. Returns {session_ids}."
        ),
    )
    async def lore_list_processed_sessions() -> CallToolResult:
        return await run("lore_list_processed_sessions", lambda rg, mem: mem.processed_sessions())

    # -- Recollect's dialect: typed entries, contradictions ----------------------------------
    @server.tool(
        name="recollect_remember",
        title="Remember an entry",
        annotations=_WRITE,
        description=(
            "Store one piece of knowledge as a typed entry (decision, preference, problem, "
            "outcome, observation, ...). With auto_classify (default) the type is inferred from "
            "the text and entry_type is ignored. Statements that contradict current knowledge "
            "are stored and the contradictions recorded (check first with "
            "recollect_check_contradiction when unsure). The same content stored twice returns "
            "the existing entry (created=false). Returns {id, created, entry_type, title, tags, "
            "conflicts}."
        ),
    )
    async def recollect_remember(
        content: Annotated[str, Field(min_length=1, description="The knowledge, in plain text.")],
        entry_type: Annotated[
            str, Field(description="note, decision, preference, problem, outcome, ...")
        ] = "note",
        tags: Annotated[list[str], Field(max_length=50)] = [],  # noqa: B006
        title: str | None = None,
        auto_classify: bool = True,
    ) -> CallToolResult:
        body = MemoryTools.remember(content, entry_type, tags, title, auto_classify)
        return await run("recollect_remember", body)

    @server.tool(
        name="recollect_search",
        title="Search entries",
        annotations=_READ,
        description=(
            "Search this project's knowledge entries (hybrid: meaning, keywords, graph "
            "neighbourhood, strength, quality, usage) and see why each hit ranks where it does. "
            "Returns {query, count, hits: [{id, title, content (cut at 2000 characters, "
            "truncated=true), entry_type, tags, score, signals: {semantic, keyword, graph, "
            "strength, quality, usage}, via}]}."
        ),
    )
    async def recollect_search(
        query: Annotated[str, Field(min_length=1, description="What to look for.")],
        limit: Annotated[int, Field(ge=1, le=50, description="Most hits.")] = 10,
        min_score: Annotated[float, Field(ge=0, description="Drop hits below this score.")] = 0.0,
        entry_types: Annotated[
            list[str] | None, Field(description="Keep only these entry types.")
        ] = None,
        tags: Annotated[list[str] | None, Field(description="Keep entries with any tag.")] = None,
        include_superseded: Annotated[
            bool, Field(description="Also return retired (superseded) entries.")
        ] = False,
    ) -> CallToolResult:
        opts: dict[str, Any] = {
            "limit": limit,
            "min_score": min_score,
            "entry_types": entry_types,
            "tags": tags,
            "include_superseded": include_superseded,
        }
        return await run("recollect_search", MemoryTools.search(query, opts))

    @server.tool(
        name="recollect_check_contradiction",
        title="Check for contradictions",
        annotations=_READ,
        description=(
            "Check whether a statement contradicts what this project already knows, before "
            "acting on it or storing it; writes nothing. Returns {ok (true: no conflict), "
            "conflicts: [{type, score, reason, existing_id, existing_title, existing_content}], "
            "claims (what was read from the statement)}."
        ),
    )
    async def recollect_check_contradiction(
        content: Annotated[str, Field(min_length=1, description="The statement to check.")],
    ) -> CallToolResult:
        return await run("recollect_check_contradiction", MemoryTools.check_contradiction(content))

    @server.tool(
        name="recollect_recall",
        title="Recall a past session",
        annotations=_READ,
        description=(
            'Find the past agent session the user vaguely remembers ("the one where the CI '
            'cache drove me nuts", "what touched PR #212"). Returns {input_type, track, '
            "candidates: [{session_id, confidence (low/medium/high), cwd, topic, fingerprint, "
            "cross_refs, fork_marker, parent_pointer, parent_cwd, resumption_hint, evidence}], "
            "probes, null_match, single_obvious, prose}. With no candidates on a first attempt "
            "it returns probes (temporal, associative, contextual choices): ask the user, then "
            "call again with attempt=2 and their answer in hints. Recalled context is past "
            "state: re-verify before acting on it."
        ),
    )
    async def recollect_recall(
        text: Annotated[str, Field(min_length=1, description="What the user remembers.")],
        hints: Annotated[
            list[str], Field(max_length=20, description="Answers to earlier probes.")
        ] = [],  # noqa: B006
        attempt: Annotated[int, Field(ge=1, le=3, description="1, then 2-3 after probes.")] = 1,
    ) -> CallToolResult:
        return await run("recollect_recall", MemoryTools.recall(text, hints, attempt))

    @server.tool(
        name="recollect_context",
        title="Context pack for a question",
        annotations=_READ,
        description=(
            "Everything the store knows that bears on a question, as Markdown that fits a token "
            "budget (counted with the embedding model's tokenizer, never exceeded): sections "
            "Entries, Chunks (document passages), Entities, Relations and Related, each item "
            "cited ([E1], [C2]...; ids in citations). Returns {markdown, tokens, budget, "
            "citations: [{key, kind, id, ...}], cut: {reason, notes}}. Use it before answering "
            "from memory; cite the keys."
        ),
    )
    async def recollect_context(
        query: Annotated[str, Field(min_length=1, description="The question or task.")],
        budget_tokens: Annotated[
            int, Field(ge=50, le=20_000, description="Most tokens of Markdown to return.")
        ] = 1500,
    ) -> CallToolResult:
        return await run("recollect_context", MemoryTools.context(query, budget_tokens))

    return server


def serve(settings: Settings, *, warm: bool = True) -> None:
    """Serve the tools over stdio until the client closes the connection.

    Args:
        settings: Effective settings (scope, owner and database).
        warm: Open the database and load the model in the background at once, so the first
            tool call does not wait for them (a failure is logged and retried on that call).
    """
    tools = MemoryTools(settings)
    server = build_server(tools)
    if warm:
        threading.Thread(target=tools.warm, name="recollect-warm", daemon=True).start()
    try:
        server.run("stdio")
    finally:
        tools.close()
