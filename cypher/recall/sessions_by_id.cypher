// Purpose: sessions of a scope named by id in the recall (a full id, or an 8+ character prefix).
// Params: $scope_id (string), $ids (list of strings)
// Returns: id (string), literal (string)
UNWIND $ids AS lit
MATCH (s:Session)
WHERE s.scope_id = $scope_id AND (s.id = lit OR (size(lit) >= 8 AND s.id STARTS WITH lit))
RETURN s.id AS id, lit AS literal
