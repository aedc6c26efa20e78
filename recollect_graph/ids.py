"""Every deterministic id the system derives, in one place.

Writes are idempotent because a node's id is a function of what identifies it: the same content
in a scope is the same entry, the same (document, chunk content, repeat) is the same chunk. Each
family of nodes has its own UUID namespace (``uuid5(namespace, key)``; the key's parts are joined
with the unit separator ``\\x1f``). The namespaces and key layouts are part of the stored data:
changing one gives existing nodes new ids, so they never change (an export made by any version
re-derives to the same ids, see :mod:`recollect_graph.services.transfer.format`).

========================  ===================  ===============================================
id of                     namespace            key
========================  ===================  ===============================================
Entry                     ``ENTRY``            scope, content hash (or ``src`` + source id)
Turn entry                ``SESSION``          ``turn``, scope, session id, turn id
Identifier / Marker       ``SESSION``          kind, scope, namespace or kind, value
Claim                     ``CLAIM``            entry, index, predicate, keys, polarity
Entity                    ``CLAIM``            scope, ``entity``, normalised name
Relation                  ``PIPELINE``         scope, ``rel``, subject, predicate, object
Chunk                     ``PIPELINE``         document, ``chunk``, content hash, repeat
Document                  ``DOCUMENT``         scope, collection, source type, source id
Collection                ``DOCUMENT``         scope, ``collection``, name
Topic                     ``TOPIC``            scope, sorted member ids
Reflection                ``REVIEW``           scope, session id
LinkSuggestion            ``REVIEW``           scope, the two entry ids sorted
imported node             ``IMPORT``           target scope, exported id
========================  ===================  ===============================================

Entities share the claims' namespace because a claim's subject and the entity the documents
pipeline finds for the same name must be one node.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable

#: Entries (notes, decisions, memories) that are not turns.
ENTRY = uuid.UUID("6f1c3a52-3d0e-4c1b-9a8e-2b7d5f0c9e11")
#: Claims and entities.
CLAIM = uuid.UUID("0b7c8f55-58d2-4a5e-9a51-4f7e2d6a9b13")
#: Session turns and the recall index's Identifier and Marker nodes.
SESSION = uuid.UUID("5b0c1f6e-3a51-4d0b-9a51-7d1c2b7f0a11")
#: Documents and collections.
DOCUMENT = uuid.UUID("8a4d2c1e-5f6b-4a3c-8d2e-0b1c9f7e6a53")
#: What the documents pipeline derives: chunks and reified relations.
PIPELINE = uuid.UUID("3c9e2f1a-6b4d-4e8a-9f0c-1d2e3f4a5b6c")
#: Topics.
TOPIC = uuid.UUID("0c6f3d0e-8a7b-4f5e-9d1c-3b2a1f0e9d84")
#: Lore's review loop: session reflections and link suggestions.
REVIEW = uuid.UUID("5d7e1c0a-8f7b-4d2e-9c3a-6b1f0e2d4a77")
#: Nodes imported into another scope whose id no formula derives.
IMPORT = uuid.UUID("0f6a8c52-7c1e-4b7a-9d3e-2f1b5e8c4a90")

_SEP = "\x1f"


def _uuid(namespace: uuid.UUID, *parts: object) -> str:
    return str(uuid.uuid5(namespace, _SEP.join(str(p) for p in parts)))


def entry_id(scope_id: str, *, content_sha: str, source_id: str | None, force: bool) -> str:
    """An entry's id: the same content (or the same source id) in a scope is the same entry.

    ``force`` gives a random id (a deliberate duplicate).
    """
    if force:
        return str(uuid.uuid4())
    if source_id:
        return _uuid(ENTRY, scope_id, "src", source_id)
    return _uuid(ENTRY, scope_id, content_sha)


def turn_entry_id(scope_id: str, session_id: str, turn_id: str) -> str:
    """The entry id of a conversation turn: stable per (scope, session, turn id)."""
    return _uuid(SESSION, "turn", scope_id, session_id, turn_id)


def recall_node_id(kind: str, scope_id: str, *parts: str) -> str:
    """The id of an ``Identifier`` (kind ``identifier``) or ``Marker`` (``marker``) node."""
    return _uuid(SESSION, kind, scope_id, *parts)


def claim_id(
    entry_id: str,
    index: int,
    predicate: object,
    subject_key: object,
    object_key: object,
    polarity: object,
) -> str:
    """The id of the ``index``-th claim an entry asserts."""
    return _uuid(CLAIM, entry_id, index, predicate, subject_key, object_key, polarity)


def entity_id(scope_id: str, normalized_name: str) -> str:
    """The id of the scope's entity with this normalised name (claims and documents alike)."""
    return _uuid(CLAIM, scope_id, "entity", normalized_name)


def relation_id(scope_id: str, subject_id: str, predicate: str, object_id: str) -> str:
    """The id of the reified relation ``subject --predicate--> object`` of a scope."""
    return _uuid(PIPELINE, scope_id, "rel", subject_id, predicate, object_id)


def chunk_id(document_id: str, content_hash: str, occurrence: int) -> str:
    """A chunk's id: its document, its content and which repeat of that content it is."""
    return _uuid(PIPELINE, document_id, "chunk", content_hash, occurrence)


def document_id(scope_id: str, collection: str, source_type: str, source_id: str) -> str:
    """A document's id: its scope, collection and source key."""
    return _uuid(DOCUMENT, scope_id, collection, source_type, source_id)


def collection_id(scope_id: str, name: str) -> str:
    """A collection's id: its scope and name."""
    return _uuid(DOCUMENT, scope_id, "collection", name)


def topic_id(scope_id: str, member_ids: Iterable[str]) -> str:
    """A topic's id: the scope and its sorted member ids.

    The same members give the same id (a rebuild is idempotent); a topic that gains or loses a
    member is a new topic, and the old one is removed.
    """
    return _uuid(TOPIC, scope_id, *sorted(member_ids))


def reflection_id(scope_id: str, session_id: str) -> str:
    """The id of the reflection on a session (one per session and scope)."""
    return _uuid(REVIEW, scope_id, session_id)


def suggestion_id(scope_id: str, a: str, b: str) -> str:
    """The id of the link suggestion between two entries (order does not matter)."""
    lo, hi = sorted((a, b))
    return _uuid(REVIEW, scope_id, lo, hi)


def imported_id(target_scope: str, old_id: str) -> str:
    """The id an import gives a node whose id no formula derives: the target scope and old id."""
    return _uuid(IMPORT, target_scope, old_id)
