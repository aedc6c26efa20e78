// Purpose: link entries of the scope to their topics with a membership confidence.
// Params: $scope_id (string), $rows (list of maps: topic_id, id, confidence)
// Returns: n (int)
UNWIND $rows AS row
MATCH (t:Topic {id: row.topic_id})
WHERE t.scope_id = $scope_id
MATCH (x:Entry {id: row.id})
WHERE x.scope_id = $scope_id
MERGE (x)-[r:IN_TOPIC]->(t)
SET r.confidence = row.confidence
RETURN count(r) AS n
