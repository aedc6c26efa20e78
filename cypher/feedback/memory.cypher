// Purpose: apply explicit feedback to memories of a scope: the 0-10 score moves up (useful) or
//   down (not useful) by the computed delta, the running feedback confidence updates, usage goes
//   up by one, and repeated low-confidence "not useful" feedback soft-deletes the memory.
// Params: $rows (list of maps: id, useful, confidence, delta), $scope_id (string), $now (datetime), $delete_after (int), $delete_confidence (int)
// Returns: id (string), score (float), feedback_confidence (float), negative_feedback (int), soft_deleted (bool)
UNWIND $rows AS row
MATCH (e:Entry {id: row.id})
WHERE e.scope_id = $scope_id
WITH e, row, coalesce(e.feedback_count, 0) AS n,
     coalesce(e.feedback_confidence, toFloat(row.confidence)) AS prev
WITH e, row, n, prev,
     coalesce(e.negative_feedback, 0)
       + CASE WHEN NOT row.useful AND row.confidence <= $delete_confidence THEN 1 ELSE 0 END
       AS negatives
SET e.score = CASE WHEN e.score + row.delta > 10.0 THEN 10.0
                   WHEN e.score + row.delta < 0.0 THEN 0.0 ELSE e.score + row.delta END,
    e.feedback_confidence = prev + (row.confidence - prev) / CASE WHEN n + 1 < 20 THEN n + 1 ELSE 20 END,
    e.feedback_count = n + 1,
    e.negative_feedback = negatives,
    e.access_count = coalesce(e.access_count, 0) + 1,
    e.last_accessed_at = $now,
    e.updated_at = $now
FOREACH (_ IN CASE WHEN negatives >= $delete_after AND e.soft_deleted_at IS NULL THEN [1] ELSE [] END |
  SET e.soft_deleted_at = $now, e.delete_reason = 'feedback')
RETURN e.id AS id, e.score AS score, e.feedback_confidence AS feedback_confidence,
       e.negative_feedback AS negative_feedback, e.soft_deleted_at IS NOT NULL AS soft_deleted
