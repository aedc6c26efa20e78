// Purpose: put a re-created turn entry back into its session (undo of forget): the Turn label,
//   HAS_TURN from the session of its scope and session_id, and its place in the NEXT chain by
//   seq (the NEXT edge between its neighbours is replaced by two through it); turn_count is
//   recounted. The session is written first (a lock, as add_turns takes). Nothing happens when
//   the session is gone.
// Params: $id (string), $now (datetime)
// Returns: session_id (string), turn_count (int)
MATCH (t:Entry {id: $id})
MATCH (s:Session {scope_id: t.scope_id, id: t.session_id})
SET s.updated_at = $now, s.indexed_at = null
SET t:Turn
MERGE (s)-[:HAS_TURN]->(t)
WITH s, t
CALL (s, t) {
  OPTIONAL MATCH (s)-[:HAS_TURN]->(p:Turn)
  WHERE p <> t AND p.seq < t.seq
  WITH p ORDER BY p.seq DESC LIMIT 1
  RETURN p
}
CALL (s, t) {
  OPTIONAL MATCH (s)-[:HAS_TURN]->(n:Turn)
  WHERE n <> t AND n.seq > t.seq
  WITH n ORDER BY n.seq LIMIT 1
  RETURN n
}
CALL (p, n) {
  OPTIONAL MATCH (p)-[r:NEXT]->(n)
  DELETE r
}
FOREACH (_ IN CASE WHEN p IS NULL THEN [] ELSE [1] END | MERGE (p)-[:NEXT]->(t))
FOREACH (_ IN CASE WHEN n IS NULL THEN [] ELSE [1] END | MERGE (t)-[:NEXT]->(n))
SET s.turn_count = COUNT { (s)-[:HAS_TURN]->(:Turn) }
RETURN s.id AS session_id, s.turn_count AS turn_count
