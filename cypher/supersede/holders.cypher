// Purpose: current entries of a scope that already say (subject, predicate, value).
// Params: $scope_id (string), $subject_key (string), $predicate (string), $object_key (string), $now (datetime)
// Returns: entry_id (string)
MATCH (c:Claim {scope_id: $scope_id, subject_key: $subject_key})
WHERE c.predicate = $predicate AND c.object_key = $object_key AND c.polarity > 0
MATCH (e:Entry)-[:ASSERTS]->(c)
WHERE e.retired_at IS NULL AND e.soft_deleted_at IS NULL
  AND (e.valid_to IS NULL OR e.valid_to > $now)
WITH DISTINCT e
RETURN e.id AS entry_id
ORDER BY e.created_at DESC
LIMIT 1
