// Purpose: undo of a forgotten turn (exact path): after its node and edges are back, mend its
//   session's NEXT chain where turns added since made it branch: the turn sits between the turns
//   before and after it by seq, and NEXT edges leaving those that skip it go. Where nothing was
//   added since, nothing is deleted or written (the graph is exactly as before the forget);
//   turn_count is recounted.
// Params: $id (string)
// Returns: session_id (string), turn_count (int)
MATCH (t:Entry {id: $id})
MATCH (s:Session {scope_id: t.scope_id, id: t.session_id})-[:HAS_TURN]->(t)
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
CALL (p, t) {
  OPTIONAL MATCH (p)-[r:NEXT]->(x)
  WHERE x <> t
  DELETE r
}
CALL (t, n) {
  OPTIONAL MATCH (t)-[r:NEXT]->(x)
  WHERE n IS NULL OR x <> n
  DELETE r
}
FOREACH (_ IN CASE WHEN p IS NULL THEN [] ELSE [1] END | MERGE (p)-[:NEXT]->(t))
FOREACH (_ IN CASE WHEN n IS NULL THEN [] ELSE [1] END | MERGE (t)-[:NEXT]->(n))
WITH s, COUNT { (s)-[:HAS_TURN]->(:Turn) } AS turns
SET s.turn_count = turns
RETURN s.id AS session_id, s.turn_count AS turn_count
