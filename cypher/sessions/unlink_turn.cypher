// Purpose: take a turn out of its session (before the turn entry is deleted): the session is
//   written first (a lock, as add_turns takes), NEXT is relinked around the turn, and the
//   session's turn_count no longer counts it; its recall index is marked stale. Nothing happens
//   when the entry is not a turn.
// Params: $id (string), $now (datetime)
// Returns: session_id (string), turn_count (int)
MATCH (s:Session)-[:HAS_TURN]->(t:Entry {id: $id})
SET s.updated_at = $now, s.indexed_at = null
WITH s, t
CALL (t) {
  OPTIONAL MATCH (p:Entry)-[:NEXT]->(t)
  OPTIONAL MATCH (t)-[:NEXT]->(n:Entry)
  FOREACH (_ IN CASE WHEN p IS NOT NULL AND n IS NOT NULL AND p <> n THEN [1] ELSE [] END |
    MERGE (p)-[:NEXT]->(n))
}
SET s.turn_count = COUNT { (s)-[:HAS_TURN]->(x:Turn) WHERE x <> t }
RETURN s.id AS session_id, s.turn_count AS turn_count
