// Purpose: a learner's cursor in a scope: how far its source has been learned, and whether a
//   run is open (started and not finished: the next run resumes from run_since).
// Params: $id (string), $scope_id (string)
// Returns: cursor (map)
MATCH (c:LearnerCursor {id: $id})
WHERE c.scope_id = $scope_id
RETURN c {.*} AS cursor
