// Purpose: store a run's final step details (the writing step's own time is known only after
//   its transaction committed).
// Params: $scope_id (string), $run_id (string), $steps (string, JSON)
// Returns: id (string)
MATCH (r:PipelineRun {id: $run_id, scope_id: $scope_id})
SET r.step_details = $steps
RETURN r.id AS id
