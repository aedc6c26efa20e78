// Purpose: commit a processed document: its content, hash, title, token and chunk counts,
//   document vector and `ready` status, and close the run as `complete` with its step details.
// Params: $scope_id (string), $id (string), $run_id (string), $doc (map: title, content, content_hash, token_count, metadata, embedding (list or null), path (string or null)), $model (string), $steps (string, JSON), $counts (map: chunks_total, chunks_new, chunks_kept, chunks_removed, chunks_embedded, entities, relations), $now (datetime)
// Returns: id (string)
MATCH (d:Document {id: $id, scope_id: $scope_id})-[:HAS_RUN]->(r:PipelineRun {id: $run_id})
OPTIONAL MATCH (d)-[:HAS_CHUNK]->(c:Chunk)
WITH d, r, count(c) AS chunks
SET d.title = $doc.title, d.content = $doc.content, d.content_hash = $doc.content_hash,
    d.token_count = $doc.token_count, d.metadata = $doc.metadata, d.path = $doc.path,
    d.embedding = $doc.embedding,
    d.embedding_model = CASE WHEN $doc.embedding IS NULL THEN null ELSE $model END,
    d.status = 'ready', d.error = null, d.chunk_count = chunks, d.updated_at = $now
SET r.status = 'complete', r.completed_at = $now, r.step_details = $steps, r += $counts
RETURN d.id AS id
