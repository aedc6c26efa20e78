// Purpose: the ready documents of a scope that can be topic members (document vector from the
//   current model), with their first chunks (for keywords and the digest), content hash and the
//   entities their chunks mention.
// Params: $scope_id (string), $model (string), $max_chunks (int)
// Returns: id (string), title (string or null), content_hash (string), embedding (list of float),
//   chunks (list of maps: id, seq, heading, text), entities (list of entity ids)
MATCH (d:Document)
WHERE d.scope_id = $scope_id AND d.status = 'ready' AND d.soft_deleted_at IS NULL
  AND d.embedding IS NOT NULL AND coalesce(d.embedding_model, $model) = $model
CALL (d) {
  MATCH (d)-[:HAS_CHUNK]->(c:Chunk)
  WHERE c.scope_id = $scope_id
  WITH c ORDER BY c.seq
  RETURN collect(c {.id, .seq, .heading, .text})[..$max_chunks] AS chunks
}
CALL (d) {
  MATCH (d)-[:HAS_CHUNK]->(c:Chunk)-[:MENTIONS]->(n:Entity)
  WHERE c.scope_id = $scope_id AND n.scope_id = $scope_id
  RETURN collect(DISTINCT n.id) AS entities
}
RETURN d.id AS id, d.title AS title, d.content_hash AS content_hash, d.embedding AS embedding,
       chunks, entities
ORDER BY id
