// Purpose: one pipeline run of a scope by id (a document's or a folder ingest's).
// Params: $scope_id (string), $id (string)
// Returns: run (map: the run's properties)
MATCH (r:PipelineRun {id: $id, scope_id: $scope_id})
RETURN r {.*} AS run
