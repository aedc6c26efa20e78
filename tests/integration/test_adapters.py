"""The LangChain and LlamaIndex adapters against the real packages and the real Neo4j."""

from __future__ import annotations

import pytest

from recollect_graph import Recollect

langchain_core = pytest.importorskip(
    "langchain_core",
    reason="langchain-core is not installed (pip install 'recollect-graph[langchain]')",
)
llama_index_core = pytest.importorskip(
    "llama_index.core",
    reason="llama-index-core is not installed (pip install 'recollect-graph[llamaindex]')",
)

from langchain_core.documents import Document  # noqa: E402
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage  # noqa: E402
from llama_index.core.base.llms.types import ChatMessage, MessageRole  # noqa: E402
from llama_index.core.memory import ChatMemoryBuffer  # noqa: E402
from llama_index.core.schema import NodeWithScore  # noqa: E402

from recollect_graph.integrations import langchain as lc  # noqa: E402
from recollect_graph.integrations import llamaindex as li  # noqa: E402


def _seed(rg: Recollect, scope_id: str) -> tuple[str, str]:
    vite = rg.remember(
        "We chose Vite over webpack for the frontend build",
        scope_id=scope_id,
        owner_id="kai",
        title="Build tool",
        tags=["build"],
    )
    other = rg.remember(
        "The office plants are watered on Fridays", scope_id=scope_id, owner_id="kai"
    )
    rg.remember("We chose Vite too, in another scope", scope_id=f"{scope_id}-other", owner_id="kai")
    return vite.id, other.id


def test_langchain_retriever_returns_documents_with_the_score_breakdown(
    rg: Recollect, scope_id: str
) -> None:
    vite, _ = _seed(rg, scope_id)
    docs = lc.RecollectRetriever(rg=rg, scope_id=scope_id, k=2).invoke(
        "which build tool did we pick"
    )
    assert docs and all(isinstance(d, Document) for d in docs)
    top = docs[0]
    assert top.page_content == "We chose Vite over webpack for the frontend build"
    assert top.metadata["id"] == vite and top.metadata["title"] == "Build tool"
    assert top.metadata["scope_id"] == scope_id and top.metadata["rank"] == 1
    assert top.metadata["signals"]["semantic"] > 0 and top.metadata["score"] > 0
    assert set(top.metadata["signals"]) >= {"semantic", "keyword", "graph"}
    assert all(d.metadata["scope_id"] == scope_id for d in docs)  # never another scope
    assert len(docs) <= 2
    only_notes = lc.RecollectRetriever(
        rg=rg, scope_id=scope_id, search_kwargs={"tags": ["nope"]}
    ).invoke("build tool")
    assert only_notes == []


def test_langchain_chat_history_is_a_session(rg: Recollect, scope_id: str) -> None:
    history = lc.RecollectChatMessageHistory(rg, "chat-1", scope_id=scope_id, owner_id="kai")
    assert history.messages == []
    history.add_messages(
        [
            SystemMessage("You are terse."),
            HumanMessage("Which bundler did we pick? my key is sk-ant-api03-" + "A" * 40, id="m1"),
            AIMessage("Vite.", id="m2"),
        ]
    )
    history.add_messages([HumanMessage("again", id="m1")])  # same id: skipped
    msgs = lc.RecollectChatMessageHistory(rg, "chat-1", scope_id=scope_id).messages
    assert [type(m) for m in msgs] == [SystemMessage, HumanMessage, AIMessage]
    assert msgs[2].content == "Vite."
    assert "sk-ant-api03" not in str(msgs[1].content) and "[REDACTED" in str(msgs[1].content)
    # the session is a real one: listed, and its turns found by search
    assert rg.sessions.get("chat-1", scope_id=scope_id)["id"] == "chat-1"
    assert lc.RecollectChatMessageHistory(rg, "chat-1", scope_id=f"{scope_id}-x").messages == []
    with pytest.raises(NotImplementedError, match="is a record"):
        history.clear()


def test_llamaindex_retriever_returns_nodes_with_scores(rg: Recollect, scope_id: str) -> None:
    vite, _ = _seed(rg, scope_id)
    nodes = li.RecollectRetriever(rg, scope_id=scope_id, k=2).retrieve(
        "which build tool did we pick"
    )
    assert nodes and all(isinstance(n, NodeWithScore) for n in nodes)
    assert nodes[0].node.node_id == vite
    assert nodes[0].node.get_content() == "We chose Vite over webpack for the frontend build"
    assert nodes[0].score is not None and nodes[0].score > 0
    assert nodes[0].node.metadata["signals"]["semantic"] > 0
    assert all(n.node.metadata["scope_id"] == scope_id for n in nodes)


def test_llamaindex_chat_store_under_a_memory_buffer(rg: Recollect, scope_id: str) -> None:
    store = li.RecollectChatStore(rg=rg, scope_id=scope_id, owner_id="kai")
    memory = ChatMemoryBuffer.from_defaults(chat_store=store, chat_store_key="li-chat")
    memory.put(ChatMessage(role=MessageRole.USER, content="Which bundler did we pick?"))
    memory.put(ChatMessage(role=MessageRole.ASSISTANT, content="Vite."))
    got = ChatMemoryBuffer.from_defaults(chat_store=store, chat_store_key="li-chat").get_all()
    assert [(m.role, m.content) for m in got] == [
        (MessageRole.USER, "Which bundler did we pick?"),
        (MessageRole.ASSISTANT, "Vite."),
    ]
    assert "li-chat" in store.get_keys()
    store.set_messages("li-chat", [*got, ChatMessage(role=MessageRole.USER, content="Thanks")])
    assert len(store.get_messages("li-chat")) == 3
    with pytest.raises(NotImplementedError, match="only append"):
        store.set_messages("li-chat", [ChatMessage(role=MessageRole.USER, content="rewritten")])
    with pytest.raises(NotImplementedError, match="is a record"):
        store.delete_messages("li-chat")
    assert len(store.get_messages("li-chat")) == 3
