// Purpose: access history: (:AccessEvent)-[:ACCESSED {rank}]->(Entry|Document|Chunk|Session)
//   records views, searches and recalls. An event's id is unique; events are read by scope and
//   by time (recommendations decay them by age).
// Params: none
// Returns: nothing
CREATE CONSTRAINT accessevent_id IF NOT EXISTS FOR (n:AccessEvent) REQUIRE n.id IS UNIQUE;
CREATE INDEX accessevent_scope IF NOT EXISTS FOR (n:AccessEvent) ON (n.scope_id);
CREATE INDEX accessevent_at IF NOT EXISTS FOR (n:AccessEvent) ON (n.at);
CREATE INDEX accessevent_scope_owner_at IF NOT EXISTS FOR (n:AccessEvent) ON (n.scope_id, n.owner_id, n.at);
