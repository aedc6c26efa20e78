// Purpose: Browser guide, step 1: the scopes in this database, with how many entries, sessions
//   and other nodes each holds, largest first (pick one for $scope).
// Params: none
// Returns: scope, entries, sessions, nodes
MATCH (n)
WHERE n.scope_id IS NOT NULL
RETURN n.scope_id AS scope,
       count(CASE WHEN n:Entry THEN 1 END) AS entries,
       count(CASE WHEN n:Session THEN 1 END) AS sessions,
       count(*) AS nodes
ORDER BY nodes DESC
LIMIT 50
