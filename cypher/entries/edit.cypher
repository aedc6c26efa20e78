// Purpose: edit an entry in place: new content, content hash and vector; the edit counted and
//   timed (the earlier content is kept in the edit's Operation).
// Params: $id (string), $scope_id (string), $content (string), $content_hash (string), $caption (string: plain-text caption of the new text), $embedding (list of floats), $model (string), $now (datetime)
// Returns: props (map, no embedding)
MATCH (e:Entry {id: $id})
WHERE e.scope_id = $scope_id
SET e.content = $content, e.content_hash = $content_hash, e.caption = $caption,
    e.embedding = $embedding,
    e.embedding_model = $model, e.updated_at = $now, e.edited_at = $now,
    e.edit_count = coalesce(e.edit_count, 0) + 1
RETURN e {.*, embedding: null, context_embedding: null} AS props
