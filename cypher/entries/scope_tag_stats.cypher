// Purpose: how many live entries a scope has and how many carry each of the given tags (the
//   inputs of schema fit).
// Params: $scope_id (string), $tags (list of strings)
// Returns: n (int), tag (string or null), freq (int)
CALL () {
  MATCH (e:Entry {scope_id: $scope_id})
  WHERE e.soft_deleted_at IS NULL
  RETURN count(e) AS n
}
UNWIND (CASE WHEN size($tags) = 0 THEN [null] ELSE $tags END) AS tag
OPTIONAL MATCH (x:Entry {scope_id: $scope_id})
  WHERE tag IS NOT NULL AND tag IN x.tags AND x.soft_deleted_at IS NULL
RETURN n, tag, count(x) AS freq
