// Purpose: the transcript bytes already ingested per session of a scope (to skip unchanged files).
// Params: $scope_id (string), $ids (list of strings)
// Returns: id (string), source_size (int or null), turn_count (int or null)
MATCH (s:Session)
WHERE s.id IN $ids AND s.scope_id = $scope_id
RETURN s.id AS id, s.source_size AS source_size, s.turn_count AS turn_count
