// Purpose: the (id, content hash) of every entry and ready document of a scope that can be a
//   topic member (same eligibility as entry_members and document_members, no vectors read), for
//   the scope fingerprint that lets an unchanged scope skip clustering.
// Params: $scope_id (string), $model (string)
// Returns: id (string), content_hash (string)
MATCH (e:Entry)
WHERE e.scope_id = $scope_id AND NOT e:Turn
  AND coalesce(e.entry_type, '') <> 'conversation_turn'
  AND e.soft_deleted_at IS NULL AND e.retired_at IS NULL
  AND e.embedding IS NOT NULL AND e.embedding_model = $model
RETURN e.id AS id, e.content_hash AS content_hash
UNION ALL
MATCH (d:Document)
WHERE d.scope_id = $scope_id AND d.status = 'ready' AND d.soft_deleted_at IS NULL
  AND d.embedding IS NOT NULL AND coalesce(d.embedding_model, $model) = $model
RETURN d.id AS id, d.content_hash AS content_hash
