// Purpose: record the start time of a finished sweep (the next sweep re-scans from there).
// Params: $id (string), $scope_id (string), $position (datetime)
// Returns: position (datetime)
MERGE (c:LearnerCursor {id: $id})
  ON CREATE SET c.scope_id = $scope_id, c.source = 'sweep'
SET c.position = $position, c.updated_at = $position
RETURN c.position AS position
