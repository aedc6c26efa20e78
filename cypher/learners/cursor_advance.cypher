// Purpose: advance a learner's cursor; run in the same transaction as the batch it covers, so
//   the position never passes what is committed. The position only moves forward; closing the
//   run ($open false) clears run_since and counts the run.
// Params: $id (string), $scope_id (string), $source (string), $position (datetime or null), $open (bool), $learned (int), $now (datetime)
// Returns: cursor (map)
MERGE (c:LearnerCursor {id: $id})
  ON CREATE SET c.scope_id = $scope_id, c.source = $source, c.learned = 0, c.runs = 0,
                c.created_at = $now
WITH c
WHERE c.scope_id = $scope_id
SET c.position = CASE
      WHEN $position IS NULL THEN c.position
      WHEN c.position IS NULL OR $position > c.position THEN $position
      ELSE c.position END,
    c.run_open = $open,
    c.run_since = CASE WHEN $open THEN c.run_since ELSE null END,
    c.runs = CASE WHEN $open THEN coalesce(c.runs, 0) ELSE coalesce(c.runs, 0) + 1 END,
    c.learned = coalesce(c.learned, 0) + $learned,
    c.updated_at = $now
RETURN c {.*} AS cursor
