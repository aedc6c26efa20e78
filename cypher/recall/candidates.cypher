// Purpose: what a recall candidate shows: the session's fields, cross-references, its fork
//   chain to the top ancestor, and its nearest turns' neighbourhood. With $as_of only sessions
//   recorded by then, with $valid_at only sessions started by then.
// Params: $scope_id (string), $ids (list of strings), $as_of (datetime or null),
//   $valid_at (datetime or null)
// Returns: session (map, no embedding), chain (list of maps: id, cwd, fork_marker,
//   parent_pointer), refs (list of maps: namespace, value), continues (list of strings)
UNWIND $ids AS sid
MATCH (s:Session {scope_id: $scope_id, id: sid})
WHERE s.scope_id = $scope_id
  AND ($as_of IS NULL OR coalesce(s.created_at, s.started_at) <= $as_of)
  AND ($valid_at IS NULL OR coalesce(s.started_at, s.created_at) <= $valid_at)
CALL (s) {
  MATCH p = (s)-[:FORKED_FROM*0..20]->(top:Session)
  WHERE NOT (top)-[:FORKED_FROM]->(:Session)
  WITH p ORDER BY length(p) DESC LIMIT 1
  RETURN [n IN nodes(p) | n {.id, .cwd, .fork_marker, .parent_pointer}] AS chain
}
CALL (s) {
  OPTIONAL MATCH (s)-[c:CITES]->(i:Identifier)
  WHERE i.namespace IN ['github_pr', 'github_issue', 'url', 'session', 'git_commit']
  WITH i, c ORDER BY c.count DESC, i.value
  RETURN [x IN collect({namespace: i.namespace, value: i.value}) WHERE x.value IS NOT NULL][..8]
         AS refs
}
CALL (s) { OPTIONAL MATCH (s)-[:CONTINUES]->(o:Session) RETURN collect(o.id) AS continues }
RETURN s {.*, embedding: null} AS session, chain, refs, continues
