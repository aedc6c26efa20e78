// Purpose: merge entity $absorb into $keep: every MENTIONS, ABOUT, SUBJECT and OBJECT edge of the
//   absorbed entity moves to the kept one (marked with `merged_from` so the merge can be undone),
//   the absorbed name becomes an alias, and the absorbed entity goes. Its properties are returned
//   for the audit record.
// Params: $scope_id (string), $keep (string), $absorb (string), $op (string: the operation id)
// Returns: absorbed (map), moved (int)
MATCH (k:Entity {id: $keep, scope_id: $scope_id}), (x:Entity {id: $absorb, scope_id: $scope_id})
WHERE k <> x
WITH k, x, x {.*} AS absorbed
CALL (k, x) {
  MATCH (s)-[m:MENTIONS]->(x)
  MERGE (s)-[n:MENTIONS]->(k)
  ON CREATE SET n = properties(m), n.merged_from = $op
  ON MATCH SET n.count = coalesce(n.count, 1) + coalesce(m.count, 1), n.merged_count = m.count,
               n.merged_in = $op
  RETURN count(*) AS mentions
}
CALL (k, x) {
  MATCH (s)-[m:ABOUT]->(x)
  CREATE (s)-[:ABOUT {merged_from: $op}]->(k)
  RETURN count(*) AS about
}
CALL (k, x) {
  MATCH (r:Relation)-[m:SUBJECT]->(x)
  CREATE (r)-[:SUBJECT {merged_from: $op}]->(k)
  RETURN count(*) AS subj
}
CALL (k, x) {
  MATCH (r:Relation)-[m:OBJECT]->(x)
  CREATE (r)-[:OBJECT {merged_from: $op}]->(k)
  RETURN count(*) AS obj
}
SET k.aliases = CASE WHEN x.name IN coalesce(k.aliases, []) THEN coalesce(k.aliases, [])
                     ELSE coalesce(k.aliases, []) + x.name END
DETACH DELETE x
WITH k, absorbed, mentions + about + subj + obj AS moved
OPTIONAL MATCH (k)<-[m:MENTIONS]-()
WITH k, absorbed, moved, sum(coalesce(m.count, 1)) AS n
SET k.mention_count = n
RETURN absorbed, moved
