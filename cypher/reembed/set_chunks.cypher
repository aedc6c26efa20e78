// Purpose: store re-embedded vectors of document chunks (one batch, one transaction).
// Params: $model (string), $rows (list of maps: id, scope_id, embedding)
// Returns: id (string)
UNWIND $rows AS row
MATCH (c:Chunk {id: row.id})
WHERE c.scope_id = row.scope_id
SET c.embedding = row.embedding, c.embedding_model = $model
RETURN c.id AS id
