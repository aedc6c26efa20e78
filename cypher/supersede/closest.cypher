// Purpose: the claims of current entries of a scope closest to what a supersede named (their
//   subject key shares a word with the entity's), so that a supersede that matched nothing can
//   say what the scope does say. Reads only.
// Params: $scope_id (string), $words (list of strings), $now (datetime), $limit (int)
// Returns: entry_id (string), content (string), subject (string), predicate (string), object (string)
MATCH (c:Claim {scope_id: $scope_id})
WHERE any(w IN $words WHERE c.subject_key CONTAINS w)
MATCH (e:Entry)-[:ASSERTS]->(c)
WHERE e.retired_at IS NULL AND e.soft_deleted_at IS NULL
  AND (e.valid_to IS NULL OR e.valid_to > $now)
WITH DISTINCT e, c
RETURN e.id AS entry_id, e.content AS content, c.subject AS subject,
       c.predicate AS predicate, c.object AS object
ORDER BY e.created_at DESC
LIMIT $limit
