// Purpose: link entries learned from a session to it (FROM_SESSION, idempotent, same scope only).
// Params: $scope_id (string), $session_id (string), $entry_ids (list of strings)
// Returns: linked (int)
MATCH (s:Session {scope_id: $scope_id, id: $session_id})
UNWIND $entry_ids AS eid
MATCH (e:Entry {id: eid})
WHERE e.scope_id = $scope_id
MERGE (e)-[:FROM_SESSION]->(s)
RETURN count(*) AS linked
