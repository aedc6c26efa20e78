"""LangChain adapters: a retriever over search and a chat message history over sessions.

Needs ``langchain-core`` (``pip install 'recollect-graph[langchain]'``).

Example:
    >>> from recollect_graph import Recollect
    >>> from recollect_graph.integrations.langchain import (
    ...     RecollectChatMessageHistory, RecollectRetriever)
    >>> rg = Recollect.open()  # doctest: +SKIP
    >>> docs = RecollectRetriever(rg=rg, scope_id="app", k=3).invoke("build tool")  # doctest: +SKIP
    >>> history = RecollectChatMessageHistory(rg, "chat-1", scope_id="app")  # doctest: +SKIP
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from recollect_graph.errors import SessionNotFound
from recollect_graph.facade import Recollect
from recollect_graph.integrations import hit_metadata, missing

try:
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.chat_history import BaseChatMessageHistory
    from langchain_core.documents import Document
    from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
    from langchain_core.retrievers import BaseRetriever
    from pydantic import ConfigDict, Field
except ImportError as e:  # pragma: no cover - the extra is not installed
    raise missing("langchain", "langchain-core") from e

__all__ = ["RecollectChatMessageHistory", "RecollectRetriever"]


class RecollectRetriever(BaseRetriever):
    """A LangChain retriever over :meth:`Recollect.search` in one scope.

    Each hit becomes a ``Document`` whose ``page_content`` is the entry's content and whose
    metadata holds its id, title, type, tags, score, rank and the per-signal breakdown
    (``metadata["signals"]``: semantic, keyword, graph, ...).

    Attributes:
        rg: An open :class:`Recollect`.
        scope_id: The scope searched (nothing outside it is returned).
        k: How many documents (1-1000).
        search_kwargs: Further keyword arguments of ``rg.search`` (``entry_types``, ``tags``,
            ``min_score``, ``as_of``...).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    rg: Recollect
    scope_id: str
    k: int = 5
    search_kwargs: dict[str, Any] = Field(default_factory=dict)

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        hits = self.rg.search(query, scope_id=self.scope_id, limit=self.k, **self.search_kwargs)
        return [Document(page_content=h.entry.content, metadata=hit_metadata(h)) for h in hits]


_ROLE_OF = {"human": "user", "ai": "assistant", "system": "system"}


class RecollectChatMessageHistory(BaseChatMessageHistory):
    """A LangChain chat message history kept as a recollect-graph session.

    Messages are the session's turns (searchable entries, secrets redacted before they are
    stored, recalled by ``recollect-graph recall``). Adding is idempotent per message id: a
    message with an ``id`` that the session already has is skipped. Sessions are a record:
    :meth:`clear` refuses (forget what must go with ``rg.forget`` or ``recollect-graph forget``).

    Args:
        rg: An open :class:`Recollect`.
        session_id: The session's id.
        scope_id: The session's scope.
        owner_id: Owner of the turns (default: the settings' default owner).
        speakers: Speaker name per role (default ``user`` / ``assistant`` / ``system``).
    """

    def __init__(
        self,
        rg: Recollect,
        session_id: str,
        *,
        scope_id: str,
        owner_id: str | None = None,
        speakers: dict[str, str] | None = None,
    ) -> None:
        self.rg = rg
        self.session_id = session_id
        self.scope_id = scope_id
        self.owner_id = owner_id or rg.settings.default_owner
        self.speakers = {"user": "user", "assistant": "assistant", "system": "system"}
        self.speakers.update(speakers or {})

    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]
        """The session's turns, in order, as LangChain messages (``[]`` for a new session)."""
        try:
            turns = self.rg.sessions.turns(self.session_id, scope_id=self.scope_id)
        except SessionNotFound:
            return []
        out: list[BaseMessage] = []
        for t in turns:
            kind = {"assistant": AIMessage, "system": SystemMessage}.get(t["role"], HumanMessage)
            out.append(kind(content=t["text"], id=t["id"], name=t.get("speaker")))
        return out

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        """Append messages as turns, in one write (a message without an ``id`` gets one)."""
        turns = []
        for m in messages:
            role = _ROLE_OF.get(m.type, "user")
            turns.append(
                {
                    "id": m.id or f"{self.session_id}-{uuid.uuid4().hex[:12]}",
                    "role": role,
                    "speaker": self.speakers[role],
                    "text": str(m.text),
                }
            )
        if turns:
            self.rg.sessions.add_turns(
                self.session_id, turns, scope_id=self.scope_id, owner_id=self.owner_id
            )

    def clear(self) -> None:
        """Refused: a session is a record (forget single turns with ``rg.forget``)."""
        raise NotImplementedError(
            "a recollect-graph session is a record and is not cleared; start another session "
            "id, or forget single turns with rg.forget(turn_id, scope_id=...)"
        )
