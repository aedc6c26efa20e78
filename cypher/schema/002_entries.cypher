// Purpose: knowledge-core additions: a memory's title is unique within its scope (Lore's rule;
//   entries without a title are not affected), and indexes for soft delete and operations.
// Params: none
// Returns: nothing
CREATE CONSTRAINT entry_scope_title IF NOT EXISTS FOR (n:Entry) REQUIRE (n.scope_id, n.title) IS UNIQUE;
CREATE INDEX entry_soft_deleted_at IF NOT EXISTS FOR (n:Entry) ON (n.soft_deleted_at);
CREATE INDEX entry_confidence_state IF NOT EXISTS FOR (n:Entry) ON (n.confidence_state);
CREATE INDEX operation_kind IF NOT EXISTS FOR (n:Operation) ON (n.kind);
