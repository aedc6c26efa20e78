// Purpose: mark a learner's run as open before its first batch, remembering where it started,
//   so an interrupted run is resumed over the same events.
// Params: $id (string), $scope_id (string), $source (string), $run_since (datetime or null), $now (datetime)
// Returns: cursor (map)
MERGE (c:LearnerCursor {id: $id})
  ON CREATE SET c.scope_id = $scope_id, c.source = $source, c.learned = 0, c.runs = 0,
                c.created_at = $now
WITH c
WHERE c.scope_id = $scope_id
SET c.run_open = true, c.run_since = $run_since, c.run_started_at = $now, c.updated_at = $now
RETURN c {.*} AS cursor
