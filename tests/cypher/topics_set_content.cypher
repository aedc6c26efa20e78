// Purpose: tests: change an entry's content in place (text, hash and vector), as an edit would,
//   keeping its id.
// Params: $scope_id (string), $id (string), $content (string), $content_hash (string), $embedding (list of float)
// Returns: n (int)
MATCH (e:Entry {id: $id})
WHERE e.scope_id = $scope_id
SET e.content = $content, e.content_hash = $content_hash, e.embedding = $embedding
RETURN count(e) AS n
