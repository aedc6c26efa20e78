// Purpose: weaken entries (invalidation): confidence and half-life multiplied by $factor, with
//   floors (0.05 and 0.5 days); they stay current unless superseded.
// Params: $ids (list of strings), $scope_id (string), $factor (float), $now (datetime)
// Returns: id (string)
MATCH (e:Entry)
WHERE e.id IN $ids AND e.scope_id = $scope_id
SET e.confidence = CASE WHEN e.confidence * $factor < 0.05 THEN 0.05
                        ELSE e.confidence * $factor END,
    e.half_life_days = CASE WHEN e.half_life_days * $factor < 0.5 THEN 0.5
                            ELSE e.half_life_days * $factor END,
    e.updated_at = $now
RETURN e.id AS id
