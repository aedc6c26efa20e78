// Purpose: a page of the topics of a scope, largest first (ties by id), with what staleness
//   needs: the stored fingerprint and flag, and the (id, content hash) pairs of their current live
//   members (as topics/current).
// Params: $scope_id (string), $skip (int), $limit (int)
// Returns: topic (map: id, label, keywords, member_count, fingerprint, stale, built_at,
//   embedding_model, method, scope_fingerprint), current (list of [member id, content hash])
MATCH (t:Topic)
WHERE t.scope_id = $scope_id
WITH t
ORDER BY t.member_count DESC, t.id
SKIP $skip LIMIT $limit
CALL (t) {
  MATCH (m)-[:IN_TOPIC]->(t)
  WHERE m.scope_id = $scope_id
    AND ((m:Entry AND m.soft_deleted_at IS NULL AND m.retired_at IS NULL)
         OR (m:Document AND m.status = 'ready' AND m.soft_deleted_at IS NULL))
  RETURN collect([m.id, m.content_hash]) AS current
}
RETURN t {.id, .label, .keywords, .member_count, .fingerprint, .stale, .built_at,
          .embedding_model, .method, .scope_fingerprint} AS topic, current
ORDER BY t.member_count DESC, t.id
