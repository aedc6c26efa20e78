// Purpose: chunks that no document holds (HAS_CHUNK). Returns nothing while the graph has no
//   documents pipeline.
// Params: $scope_id (string or null: every scope), $limit (int)
// Returns: id (string), scope_id (string or null)
MATCH (c:Chunk)
WHERE ($scope_id IS NULL OR c.scope_id = $scope_id)
  AND NOT EXISTS { (:Document)-[:HAS_CHUNK]->(c) }
RETURN c.id AS id, c.scope_id AS scope_id
ORDER BY id
LIMIT $limit
