// Purpose: record on every topic of a scope the scope fingerprint (all eligible members' content,
//   the method and its parameters) the topics were last built from.
// Params: $scope_id (string), $scope_fingerprint (string)
// Returns: n (int)
MATCH (t:Topic)
WHERE t.scope_id = $scope_id
SET t.scope_fingerprint = $scope_fingerprint
RETURN count(t) AS n
