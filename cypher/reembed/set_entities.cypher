// Purpose: store re-embedded name vectors of entities (one batch, one transaction).
// Params: $model (string), $rows (list of maps: id, scope_id, embedding)
// Returns: id (string)
UNWIND $rows AS row
MATCH (n:Entity {id: row.id})
WHERE n.scope_id = row.scope_id
SET n.embedding = row.embedding, n.embedding_model = $model
RETURN n.id AS id
