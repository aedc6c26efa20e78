// Purpose: relationship counts per type: of the whole graph ($scope_id null, from the count
//   store), or of the relationships that start at a node of one scope.
// Params: $scope_id (string or null)
// Returns: type (string), count (int)
CALL db.relationshipTypes() YIELD relationshipType AS type
CALL (type) {
  MATCH ()-[r:$(type)]->()
  WHERE $scope_id IS NULL
  RETURN count(r) AS total
}
CALL (type) {
  MATCH (a)-[r:$(type)]->()
  WHERE $scope_id IS NOT NULL AND a.scope_id = $scope_id
  RETURN count(r) AS scoped
}
WITH type, CASE WHEN $scope_id IS NULL THEN total ELSE scoped END AS count
WHERE count > 0
RETURN type, count
ORDER BY type
