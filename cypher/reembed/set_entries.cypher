// Purpose: store re-embedded vectors of entries (one batch, one transaction) with their model.
// Params: $model (string), $rows (list of maps: id, scope_id, embedding)
// Returns: id (string)
UNWIND $rows AS row
MATCH (e:Entry {id: row.id})
WHERE e.scope_id = row.scope_id
SET e.embedding = row.embedding, e.embedding_model = $model
RETURN e.id AS id
