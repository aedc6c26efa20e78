// Purpose: the lifecycle properties a supersede, invalidation or resolution changes, as they are
//   now (the before-state its undo restores).
// Params: $ids (list of strings), $scope_id (string)
// Returns: id (string), scope_id (string), props (map)
MATCH (e:Entry)
WHERE e.id IN $ids AND e.scope_id = $scope_id
RETURN e.id AS id, e.scope_id AS scope_id,
       {confidence: e.confidence, valid_to: e.valid_to, retired_at: e.retired_at,
        half_life_days: e.half_life_days, retired_by: e.retired_by,
        updated_at: e.updated_at} AS props
