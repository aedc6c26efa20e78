// Purpose: Browser: supersession chains of a scope: each path from the newest statement back
//   through what it SUPERSEDES to the oldest (retired entries carry retired_at).
// Params: $scope (string)
// Returns: p (path newest -> oldest)
MATCH p = (newest:Entry {scope_id: $scope})-[:SUPERSEDES*1..10]->(oldest:Entry)
WHERE NOT (:Entry)-[:SUPERSEDES]->(newest) AND NOT (oldest)-[:SUPERSEDES]->(:Entry)
RETURN p
LIMIT 100
