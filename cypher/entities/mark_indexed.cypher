// Purpose: remember that entries' entities and relations were extracted for their content.
// Params: $scope_id (string), $rows (list of maps: id, content_hash)
// Returns: n (int)
UNWIND $rows AS row
MATCH (e:Entry {id: row.id, scope_id: $scope_id})
SET e.entities_hash = row.content_hash
RETURN count(e) AS n
