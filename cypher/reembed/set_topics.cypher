// Purpose: store re-derived topic centroids (one batch, one transaction).
// Params: $model (string), $rows (list of maps: id, scope_id, embedding)
// Returns: id (string)
UNWIND $rows AS row
MATCH (t:Topic {id: row.id})
WHERE t.scope_id = row.scope_id
SET t.embedding = row.embedding, t.embedding_model = $model
RETURN t.id AS id
