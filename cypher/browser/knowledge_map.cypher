// Purpose: Browser: a scope's knowledge map: its 100 newest current entries (not turns,
//   superseded, retired or deleted), the entities they mention and the typed edges among them.
// Params: $scope (string)
// Returns: e (Entry node), p (path to a neighbouring Entry or Entity)
MATCH (e:Entry {scope_id: $scope})
WHERE NOT e:Turn AND e.retired_at IS NULL AND e.soft_deleted_at IS NULL
WITH e
ORDER BY e.created_at DESC
LIMIT 100
OPTIONAL MATCH p = (e)-[]-(x)
WHERE x.scope_id = $scope AND (x:Entity OR (x:Entry AND NOT x:Turn AND x.retired_at IS NULL))
RETURN e, p
