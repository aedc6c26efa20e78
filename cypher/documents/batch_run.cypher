// Purpose: record the run of one folder ingest on its collection: a PipelineRun (kind `batch`)
//   with the documents seen per outcome and the chunks embedded, so "nothing to do" is visible
//   in the graph as a run that embedded 0 chunks.
// Params: $scope_id (string), $owner_id (string), $collection_id (string), $collection (string), $run (map: id, path, documents, created, updated, unchanged, failed, skipped, chunks_total, chunks_embedded, seconds), $started (datetime), $now (datetime)
// Returns: id (string)
MERGE (c:Collection {id: $collection_id})
  ON CREATE SET c.scope_id = $scope_id, c.owner_id = $owner_id, c.name = $collection,
                c.created_at = $now
CREATE (r:PipelineRun {id: $run.id, scope_id: $scope_id, kind: 'batch', status: 'complete',
                       started_at: $started, completed_at: $now})
SET r += $run
CREATE (c)-[:HAS_RUN]->(r)
RETURN r.id AS id
