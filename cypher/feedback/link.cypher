// Purpose: apply explicit feedback to knowledge edges between memories of a scope (by the edge's
//   element id): weight moves within [0, 1], the running confidence updates, usage goes up.
// Params: $rows (list of maps: id, useful, confidence, delta), $scope_id (string), $now (datetime)
// Returns: id (string), weight (float), feedback_confidence (float)
UNWIND $rows AS row
MATCH (a:Entry)-[r]->(b:Entry)
WHERE elementId(r) = row.id AND a.scope_id = $scope_id
WITH r, row, coalesce(r.feedback_count, 0) AS n,
     coalesce(r.feedback_confidence, toFloat(row.confidence)) AS prev
SET r.weight = CASE WHEN coalesce(r.weight, 1.0) + row.delta > 1.0 THEN 1.0
                    WHEN coalesce(r.weight, 1.0) + row.delta < 0.0 THEN 0.0
                    ELSE coalesce(r.weight, 1.0) + row.delta END,
    r.feedback_confidence = prev + (row.confidence - prev) / CASE WHEN n + 1 < 20 THEN n + 1 ELSE 20 END,
    r.feedback_count = n + 1,
    r.usage_count = coalesce(r.usage_count, 0) + 1,
    r.updated_at = $now
RETURN row.id AS id, r.weight AS weight, r.feedback_confidence AS feedback_confidence
