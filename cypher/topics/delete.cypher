// Purpose: delete topics of a scope by id (their IN_TOPIC edges go with them).
// Params: $scope_id (string), $ids (list of topic ids)
// Returns: deleted (int)
MATCH (t:Topic)
WHERE t.scope_id = $scope_id AND t.id IN $ids
DETACH DELETE t
RETURN count(*) AS deleted
