// Purpose: record a failed processing: the run is `failed` with the step and error, the document
//   `failed` with the error; its content, hash and chunks stay those of its last successful
//   processing (none for a new document), so nothing is half-written.
// Params: $scope_id (string), $id (string), $run_id (string), $step (string), $error (string), $steps (string, JSON), $now (datetime)
// Returns: id (string)
MATCH (d:Document {id: $id, scope_id: $scope_id})-[:HAS_RUN]->(r:PipelineRun {id: $run_id})
SET d.status = 'failed', d.error = $error, d.updated_at = $now
SET r.status = 'failed', r.failed_step = $step, r.error = $error, r.completed_at = $now,
    r.step_details = $steps
RETURN d.id AS id
