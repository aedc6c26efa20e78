// Purpose: store turns' context vectors (one batch, one transaction), each with the id of the
//   turn it was made with; a turn whose vector is no longer of $model is left as it is.
// Params: $model (string), $rows (list of maps: id, scope_id, context_embedding, context_of)
// Returns: id (string)
UNWIND $rows AS row
MATCH (e:Entry {id: row.id})
WHERE e.scope_id = row.scope_id AND coalesce(e.embedding_model, '') = $model
SET e.context_embedding = row.context_embedding, e.context_of = row.context_of
RETURN e.id AS id
