// Purpose: a page of the open contradictions of a scope (both entries still current), strongest
//   first, then newest, ties by the two entries' ids. Record time: with $as_of, the
//   contradictions recorded and still open at that moment (resolved later counts as open then)
//   between entries recorded, believed and not deleted then. Valid time: with $valid_at, between
//   entries both true at that moment (the rules of search/candidates: valid_from, or the
//   creation, at or before it; valid_to after it; retired since counts).
// Params: $scope_id (string), $skip (int), $limit (int), $as_of (datetime or null), $valid_at (datetime or null), $now (datetime)
// Returns: source (map), target (map), type, score, reason, claim, existing_claim, created_at
MATCH (a:Entry {scope_id: $scope_id})-[r:CONTRADICTS]->(b:Entry)
WHERE (coalesce(r.status, 'open') = 'open'
       OR ($as_of IS NOT NULL AND r.resolved_at IS NOT NULL AND r.resolved_at > $as_of))
  AND ($as_of IS NULL OR r.created_at <= $as_of)
  AND all(e IN [a, b] WHERE
        (e.soft_deleted_at IS NULL OR ($as_of IS NOT NULL AND e.soft_deleted_at > $as_of))
        AND ($as_of IS NULL OR e.created_at <= $as_of)
        AND ($valid_at IS NOT NULL OR e.retired_at IS NULL
             OR ($as_of IS NOT NULL AND e.retired_at > $as_of))
        AND ($as_of IS NULL AND $valid_at IS NULL
             OR (coalesce(CASE WHEN $valid_at IS NULL THEN e.valid_from
                               ELSE coalesce(e.valid_from, e.created_at) END
                          <= coalesce($valid_at, $as_of, $now), true)
                 AND (e.valid_to IS NULL OR e.valid_to > coalesce($valid_at, $as_of, $now)))))
RETURN a {.*, embedding: null, context_embedding: null} AS source, b {.*, embedding: null, context_embedding: null} AS target, r.type AS type,
       r.score AS score, r.reason AS reason, r.claim AS claim,
       r.existing_claim AS existing_claim, r.created_at AS created_at
ORDER BY r.score DESC, r.created_at DESC, a.id, b.id
SKIP $skip LIMIT $limit
