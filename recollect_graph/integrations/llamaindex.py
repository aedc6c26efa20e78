"""LlamaIndex adapters: a retriever over search and a chat store over sessions.

Needs ``llama-index-core`` (``pip install 'recollect-graph[llamaindex]'``).

Example:
    >>> from llama_index.core.memory import ChatMemoryBuffer  # doctest: +SKIP
    >>> from recollect_graph.integrations.llamaindex import (
    ...     RecollectChatStore, RecollectRetriever)
    >>> nodes = RecollectRetriever(rg, scope_id="app").retrieve("build tool")  # doctest: +SKIP
    >>> memory = ChatMemoryBuffer.from_defaults(  # doctest: +SKIP
    ...     chat_store=RecollectChatStore(rg=rg, scope_id="app"), chat_store_key="chat-1")
"""

from __future__ import annotations

import uuid
from typing import Any

from recollect_graph.errors import SessionNotFound
from recollect_graph.facade import Recollect
from recollect_graph.integrations import hit_metadata, missing

try:
    from llama_index.core.base.base_retriever import BaseRetriever
    from llama_index.core.base.llms.types import ChatMessage, MessageRole
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
    from llama_index.core.storage.chat_store.base import BaseChatStore
    from pydantic import ConfigDict
except ImportError as e:  # pragma: no cover - the extra is not installed
    raise missing("llamaindex", "llama-index-core") from e

__all__ = ["RecollectChatStore", "RecollectRetriever"]


class RecollectRetriever(BaseRetriever):
    """A LlamaIndex retriever over :meth:`Recollect.search` in one scope.

    Each hit becomes a ``NodeWithScore``: a ``TextNode`` (id = the entry id, text = its
    content, metadata = id, title, type, tags, rank and the per-signal breakdown) and the fused
    score.

    Args:
        rg: An open :class:`Recollect`.
        scope_id: The scope searched (nothing outside it is returned).
        k: How many nodes (1-1000).
        **search_kwargs: Further keyword arguments of ``rg.search``.
    """

    def __init__(self, rg: Recollect, *, scope_id: str, k: int = 5, **search_kwargs: Any) -> None:
        super().__init__()
        self.rg = rg
        self.scope_id = scope_id
        self.k = k
        self.search_kwargs = search_kwargs

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        hits = self.rg.search(
            query_bundle.query_str, scope_id=self.scope_id, limit=self.k, **self.search_kwargs
        )
        return [
            NodeWithScore(
                node=TextNode(id_=h.entry.id, text=h.entry.content, metadata=hit_metadata(h)),
                score=h.score,
            )
            for h in hits
        ]


_ROLES = {MessageRole.ASSISTANT: "assistant", MessageRole.SYSTEM: "system"}
_FROM_ROLE = {"assistant": MessageRole.ASSISTANT, "system": MessageRole.SYSTEM}


class RecollectChatStore(BaseChatStore):
    """A LlamaIndex chat store whose keys are recollect-graph sessions of one scope.

    Use it under ``ChatMemoryBuffer`` (or any memory that takes a ``chat_store``): each message is
    a session turn (searchable, secrets redacted, recalled by ``recollect-graph recall``).
    Sessions are a record: ``set_messages`` only appends (the stored turns must be a prefix of
    the list given), and the ``delete_*`` methods refuse.

    Attributes:
        rg: An open :class:`Recollect`.
        scope_id: The scope of the sessions.
        owner_id: Owner of the turns (default: the settings' default owner).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    rg: Recollect
    scope_id: str
    owner_id: str | None = None

    @classmethod
    def class_name(cls) -> str:
        """The store's name in LlamaIndex's serialised form."""
        return "RecollectChatStore"

    def get_messages(self, key: str) -> list[ChatMessage]:
        """The session's turns in order (``[]`` for a session that does not exist yet)."""
        try:
            turns = self.rg.sessions.turns(key, scope_id=self.scope_id)
        except SessionNotFound:
            return []
        return [
            ChatMessage(
                role=_FROM_ROLE.get(t["role"], MessageRole.USER),
                content=t["text"],
                additional_kwargs={"id": t["id"], "speaker": t.get("speaker")},
            )
            for t in turns
        ]

    def add_message(self, key: str, message: ChatMessage) -> None:
        """Append one message as a turn."""
        self._append(key, [message])

    def set_messages(self, key: str, messages: list[ChatMessage]) -> None:
        """Append the messages past the ones the session has (which must be a prefix of them).

        Raises:
            NotImplementedError: The list drops or changes a stored turn.
        """
        stored = self.get_messages(key)
        if [(m.role, m.content) for m in messages[: len(stored)]] != [
            (m.role, m.content) for m in stored
        ]:
            raise NotImplementedError(
                f"session {key!r} is a record: set_messages may only append to its turns"
            )
        self._append(key, messages[len(stored) :])

    def delete_messages(self, key: str) -> list[ChatMessage] | None:
        """Refused: a session is a record."""
        raise NotImplementedError(_NO_DELETE)

    def delete_message(self, key: str, idx: int) -> ChatMessage | None:
        """Refused: a session is a record."""
        raise NotImplementedError(_NO_DELETE)

    def delete_last_message(self, key: str) -> ChatMessage | None:
        """Refused: a session is a record."""
        raise NotImplementedError(_NO_DELETE)

    def get_keys(self) -> list[str]:
        """The ids of the scope's sessions, newest first (at most 1000)."""
        return [s["id"] for s in self.rg.sessions.list(self.scope_id, limit=1000)]

    def _append(self, key: str, messages: list[ChatMessage]) -> None:
        turns = []
        for m in messages:
            role = _ROLES.get(m.role, "user")
            turns.append(
                {
                    "id": str(m.additional_kwargs.get("id") or f"{key}-{uuid.uuid4().hex[:12]}"),
                    "role": role,
                    "speaker": str(m.additional_kwargs.get("speaker") or role),
                    "text": m.content or "",
                }
            )
        if turns:
            owner = self.owner_id or self.rg.settings.default_owner
            self.rg.sessions.add_turns(key, turns, scope_id=self.scope_id, owner_id=owner)


_NO_DELETE = (
    "a recollect-graph session is a record and its turns are not deleted; use another key, or "
    "forget single turns with rg.forget(turn_id, scope_id=...)"
)
