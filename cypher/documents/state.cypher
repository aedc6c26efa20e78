// Purpose: what a document holds now, for an incremental update: its content hash and status,
//   and each chunk's id, content hash and vector (to derive the document vector).
// Params: $scope_id (string), $id (string)
// Returns: status (string), content_hash (string or null), chunks (list of maps: id, content_hash, embedding)
MATCH (d:Document {id: $id, scope_id: $scope_id})
OPTIONAL MATCH (d)-[:HAS_CHUNK]->(c:Chunk)
WITH d, c ORDER BY c.seq
RETURN d.status AS status, d.content_hash AS content_hash,
       [x IN collect(c) | {id: x.id, content_hash: x.content_hash, embedding: x.embedding}] AS chunks
