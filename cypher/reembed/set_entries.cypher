// Purpose: store re-embedded vectors of entries (one batch, one transaction) with their model: a
//   turn's context vector too (null drops an old one, of another model).
// Params: $model (string), $rows (list of maps: id, scope_id, embedding, context_embedding
//   (list or null), context_of (string or null: the turn the context vector includes))
// Returns: id (string)
UNWIND $rows AS row
MATCH (e:Entry {id: row.id})
WHERE e.scope_id = row.scope_id
SET e.embedding = row.embedding, e.embedding_model = $model,
    e.context_embedding = row.context_embedding, e.context_of = row.context_of
RETURN e.id AS id
