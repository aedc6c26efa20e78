// Purpose: a page of the entity pairs waiting for review (MAYBE_SAME_AS: similar names, not
//   merged), most similar first, ties by the two ids.
// Params: $scope_id (string), $skip (int), $limit (int)
// Returns: a_id, a, b_id, b (strings), score (float)
MATCH (a:Entity {scope_id: $scope_id})-[m:MAYBE_SAME_AS]->(b:Entity)
RETURN a.id AS a_id, a.name AS a, b.id AS b_id, b.name AS b, m.score AS score
ORDER BY score DESC, a_id, b_id
SKIP $skip LIMIT $limit
