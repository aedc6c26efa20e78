// Purpose: when each of the given sessions of a scope started (for temporal proximity).
// Params: $scope_id (string), $ids (list of strings)
// Returns: id (string), started_at (datetime or null)
UNWIND $ids AS sid
MATCH (s:Session {scope_id: $scope_id, id: sid})
RETURN s.id AS id, s.started_at AS started_at
