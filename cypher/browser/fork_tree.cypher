// Purpose: Browser: a session's fork tree: up FORKED_FROM to the top-level session it belongs
//   to, then down to every fork of that root (sub-agents, forks of forks).
// Params: $scope (string), $session (string: a session id or a fork's agent id)
// Returns: p (path from a fork up to the root; the root alone when nothing forked)
MATCH (s:Session {scope_id: $scope, id: $session})
MATCH (s)-[:FORKED_FROM*0..20]->(root:Session)
WHERE NOT (root)-[:FORKED_FROM]->(:Session)
MATCH p = (:Session)-[:FORKED_FROM*0..20]->(root)
RETURN p
