// Purpose: a document's pipeline runs, newest first.
// Params: $scope_id (string), $id (string), $limit (int)
// Returns: run (map: the run's properties)
MATCH (d:Document {id: $id, scope_id: $scope_id})-[:HAS_RUN]->(r:PipelineRun)
RETURN r {.*} AS run
ORDER BY r.started_at DESC
LIMIT $limit
