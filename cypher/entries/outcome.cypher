// Purpose: outcome feedback: good lengthens the half-life by $delta days, sets outcome +1 and
//   verified; bad shortens it (never below 1 day), sets -1 and active.
// Params: $ids (list of strings), $scope_id (string or null), $delta (float), $score (int), $state (string), $now (datetime)
// Returns: id (string), half_life_days (float)
MATCH (e:Entry)
WHERE e.id IN $ids AND ($scope_id IS NULL OR e.scope_id = $scope_id)
SET e.half_life_days = CASE WHEN e.half_life_days + $delta < 1.0 THEN 1.0
                            ELSE e.half_life_days + $delta END,
    e.outcome_score = $score, e.confidence_state = $state, e.updated_at = $now
RETURN e.id AS id, e.half_life_days AS half_life_days
