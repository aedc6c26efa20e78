// Purpose: resolve a document reference of a scope: its id, or its source id, or its exact title.
// Params: $scope_id (string), $ref (string)
// Returns: id (string)
MATCH (d:Document {scope_id: $scope_id})
WHERE d.id = $ref OR d.source_id = $ref OR d.title = $ref OR d.path = $ref
RETURN d.id AS id
ORDER BY CASE WHEN d.id = $ref THEN 0 WHEN d.source_id = $ref THEN 1 ELSE 2 END, d.id
LIMIT 2
