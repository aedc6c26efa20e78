// Purpose: store re-derived document vectors (one batch, one transaction).
// Params: $model (string), $rows (list of maps: id, scope_id, embedding)
// Returns: id (string)
UNWIND $rows AS row
MATCH (d:Document {id: row.id})
WHERE d.scope_id = row.scope_id
SET d.embedding = row.embedding, d.embedding_model = $model
RETURN d.id AS id
