// Purpose: a page of the open contradictions of a scope (both entries still current), strongest
//   first, then newest, ties by the two entries' ids.
// Params: $scope_id (string), $skip (int), $limit (int)
// Returns: source (map), target (map), type, score, reason, claim, existing_claim, created_at
MATCH (a:Entry {scope_id: $scope_id})-[r:CONTRADICTS]->(b:Entry)
WHERE coalesce(r.status, 'open') = 'open' AND a.retired_at IS NULL AND b.retired_at IS NULL
  AND a.soft_deleted_at IS NULL AND b.soft_deleted_at IS NULL
RETURN a {.*, embedding: null} AS source, b {.*, embedding: null} AS target, r.type AS type,
       r.score AS score, r.reason AS reason, r.claim AS claim,
       r.existing_claim AS existing_claim, r.created_at AS created_at
ORDER BY r.score DESC, r.created_at DESC, a.id, b.id
SKIP $skip LIMIT $limit
