// Purpose: resolve an entity reference of a scope: its id, its normalised name or one of its
//   aliases (normalised names are compared in lower case).
// Params: $scope_id (string), $ref (string), $key (string: the normalised reference)
// Returns: id (string), name (string)
MATCH (e:Entity {scope_id: $scope_id})
WHERE e.id = $ref OR e.normalized_name = $key OR $ref IN coalesce(e.aliases, [])
RETURN e.id AS id, e.name AS name
ORDER BY CASE WHEN e.id = $ref THEN 0 WHEN e.normalized_name = $key THEN 1 ELSE 2 END,
         e.mention_count DESC
LIMIT 1
