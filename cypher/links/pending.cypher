// Purpose: a page of the pending link suggestions of a scope, best first (ties by id), with both
//   memories' titles.
// Params: $scope_id (string), $skip (int), $limit (int), $min_score (float)
// Returns: suggestion (map), from_title (string), to_title (string), total_pending (int)
MATCH (s:LinkSuggestion {scope_id: $scope_id})
WHERE s.status = 'pending'
WITH collect(s) AS pending
UNWIND pending AS s
WITH s, size(pending) AS total
WHERE s.weighted_score >= $min_score
OPTIONAL MATCH (f:Entry {id: s.from_id})
OPTIONAL MATCH (t:Entry {id: s.to_id})
RETURN properties(s) AS suggestion, f.title AS from_title, t.title AS to_title,
       total AS total_pending
ORDER BY s.weighted_score DESC, s.id
SKIP $skip LIMIT $limit
