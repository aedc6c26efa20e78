// Purpose: sessions and recall: a session id is unique within its scope (the same transcript
//   may be ingested into two scopes; another scope's session is another session), identifier
//   lookups by file name and by namespace, marker lookups, turn order within a session, the turns
//   of a scope said within a time window (search).
// Params: none
// Returns: nothing
DROP CONSTRAINT session_id IF EXISTS;
CREATE CONSTRAINT session_scope_id IF NOT EXISTS FOR (n:Session) REQUIRE (n.scope_id, n.id) IS UNIQUE;
CREATE INDEX identifier_name IF NOT EXISTS FOR (n:Identifier) ON (n.name);
CREATE INDEX identifier_namespace IF NOT EXISTS FOR (n:Identifier) ON (n.namespace);
CREATE INDEX marker_kind_value IF NOT EXISTS FOR (n:Marker) ON (n.kind, n.value);
CREATE INDEX turn_seq IF NOT EXISTS FOR (n:Turn) ON (n.seq);
CREATE INDEX turn_scope_valid_from IF NOT EXISTS FOR (n:Turn) ON (n.scope_id, n.valid_from);
CREATE INDEX session_parent_pointer IF NOT EXISTS FOR (n:Session) ON (n.parent_pointer);
