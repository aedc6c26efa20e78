// Purpose: the entries of a scope that can be topic members (not turns, not soft-deleted or
//   retired, embedded with the current model), with their text, content hash, vector and the
//   entities they mention.
// Params: $scope_id (string), $model (string)
// Returns: id (string), title (string or null), text (string), content_hash (string),
//   embedding (list of float), entities (list of entity ids)
MATCH (e:Entry)
WHERE e.scope_id = $scope_id AND NOT e:Turn
  AND coalesce(e.entry_type, '') <> 'conversation_turn'
  AND e.soft_deleted_at IS NULL AND e.retired_at IS NULL
  AND e.embedding IS NOT NULL AND e.embedding_model = $model
CALL (e) {
  MATCH (e)-[:MENTIONS]->(n:Entity)
  WHERE n.scope_id = $scope_id
  RETURN collect(DISTINCT n.id) AS entities
}
RETURN e.id AS id, e.title AS title, e.content AS text, e.content_hash AS content_hash,
       e.embedding AS embedding, entities
ORDER BY id
