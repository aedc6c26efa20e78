// Purpose: create or rewrite topics of a scope (label, keywords, centroid, fingerprint, digest;
//   stale cleared) and drop their old IN_TOPIC edges, so link.cypher can add the new ones.
// Params: $scope_id (string), $rows (list of maps: id, props (map of topic properties))
// Returns: n (int)
UNWIND $rows AS row
MERGE (t:Topic {id: row.id})
  ON CREATE SET t.scope_id = $scope_id
WITH t, row
WHERE t.scope_id = $scope_id
SET t += row.props, t.stale = false
WITH t
CALL (t) {
  MATCH ()-[old:IN_TOPIC]->(t)
  DELETE old
}
RETURN count(t) AS n
