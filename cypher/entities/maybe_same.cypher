// Purpose: record pairs of entities whose names are similar enough to be the same thing but not
//   enough to merge automatically: (a)-[:MAYBE_SAME_AS {score}]->(b), for review.
// Params: $scope_id (string), $now (datetime), $rows (list of maps: a, b, score)
// Returns: pairs (int)
UNWIND $rows AS row
MATCH (a:Entity {id: row.a, scope_id: $scope_id})
MATCH (b:Entity {id: row.b, scope_id: $scope_id})
WHERE a <> b AND NOT (b)-[:MAYBE_SAME_AS]->(a)
MERGE (a)-[m:MAYBE_SAME_AS]->(b)
  ON CREATE SET m.created_at = $now
SET m.score = row.score
RETURN count(m) AS pairs
