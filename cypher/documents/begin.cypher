// Purpose: start processing a document: make sure its collection and the document exist (a new
//   document is `pending` with no content until its processing commits) and open a
//   PipelineRun (status `running`) linked to it by HAS_RUN; an earlier run still `running` (its
//   process died before committing) is marked `interrupted`.
// Params: $doc (map: id, scope_id, owner_id, collection_id, collection, title, source_type, source_id), $run_id (string), $content_hash (string), $now (datetime)
// Returns: status (string: the document's status before this run), content_hash (string or null)
MERGE (c:Collection {id: $doc.collection_id})
  ON CREATE SET c.scope_id = $doc.scope_id, c.owner_id = $doc.owner_id, c.name = $doc.collection,
                c.created_at = $now
MERGE (d:Document {id: $doc.id})
  ON CREATE SET d.scope_id = $doc.scope_id, d.owner_id = $doc.owner_id,
                d.collection = $doc.collection, d.title = $doc.title,
                d.source_type = $doc.source_type, d.source_id = $doc.source_id,
                d.status = 'pending', d.created_at = $now, d.chunk_count = 0
MERGE (c)-[:HAS_DOCUMENT]->(d)
WITH c, d
CALL (d) {
  OPTIONAL MATCH (d)-[:HAS_RUN]->(old:PipelineRun {status: 'running'})
  SET old.status = 'interrupted', old.completed_at = $now
}
CREATE (r:PipelineRun {id: $run_id, scope_id: $doc.scope_id, status: 'running',
                       content_hash: $content_hash, started_at: $now})
CREATE (d)-[:HAS_RUN]->(r)
RETURN d.status AS status, d.content_hash AS content_hash
