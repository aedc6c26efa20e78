"""The server's prompts: reusable requests a user can pick in an MCP client.

Each prompt is one user message naming the tools to use, so the agent follows the project's
memory loop (search first, check before deciding, reflect at the end).
"""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from pydantic import Field

#: The prompts, in the order they are listed.
NAMES = ("reflect_on_session", "recall_session", "check_before_deciding")


def register(server: MCPServer) -> None:
    """Add the prompts to ``server``."""

    @server.prompt(
        name="reflect_on_session",
        title="Reflect on this session",
        description="Record what this session taught (lore_reflect), once, at its end.",
    )
    def reflect_on_session(
        session_id: Annotated[str, Field(description="This session's id.")],
    ) -> str:
        return (
            f"This work session ({session_id}) is ending. First call lore_list_processed_sessions; "
            "if it lists this session, stop. Otherwise call lore_reflect once with "
            f"session_id={session_id!r}, a one-paragraph summary of what was done, and short, "
            "self-contained statements: lessons (what went wrong and why), discoveries (facts "
            "about the code or the environment), good_patterns, user_profile_updates (the "
            "user's stated preferences) and decisions (with their reasons). Leave out anything "
            "that only mattered for this session."
        )

    @server.prompt(
        name="recall_session",
        title="Recall a past session",
        description="Find a past session the user vaguely remembers (recollect_recall).",
    )
    def recall_session(
        description: Annotated[str, Field(description="What the user remembers of it.")],
    ) -> str:
        return (
            f"The user remembers a past session: {description!r}. Call recollect_recall with "
            "that text. If it returns candidates, show the best ones with their resumption "
            "hints. If it returns probes instead, ask the user the probes' questions, then call "
            "recollect_recall again with attempt=2 and their answers as hints. Treat what you "
            "recall as past state: check it against the code before acting on it."
        )

    @server.prompt(
        name="check_before_deciding",
        title="Check before deciding",
        description="Search what is known and check a planned decision for contradictions.",
    )
    def check_before_deciding(
        decision: Annotated[str, Field(description="The decision about to be taken.")],
    ) -> str:
        return (
            f"Before deciding {decision!r}: call recollect_search with the decision's subject "
            "and recollect_check_contradiction with the decision itself. If a conflict comes "
            "back, show it to the user with the existing entry's text and ask which holds; do "
            "not proceed on a contradicted assumption. Once decided, store the decision and its "
            "reason with recollect_remember (entry_type='decision')."
        )
