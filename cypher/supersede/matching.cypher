// Purpose: current entries of a scope whose claims say (subject, predicate) with another value
//   than $object_key: what a supersede would retire.
// Params: $scope_id (string), $subject_key (string), $predicate (string), $object_key (string), $now (datetime)
// Returns: entry_id (string), claim (map)
MATCH (c:Claim {scope_id: $scope_id, subject_key: $subject_key})
WHERE c.predicate = $predicate AND c.object_key <> $object_key AND c.polarity > 0
MATCH (e:Entry)-[:ASSERTS]->(c)
WHERE e.retired_at IS NULL AND e.soft_deleted_at IS NULL
  AND (e.valid_to IS NULL OR e.valid_to > $now)
RETURN DISTINCT e.id AS entry_id, properties(c) AS claim
