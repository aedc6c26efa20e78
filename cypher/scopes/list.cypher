// Purpose: what every scope holds, one row per scope and kind of node: entries (with how many
//   are current), documents, chunks, entities, sessions and operations. Dropped scopes appear
//   under their reserved ids (the caller tells them apart).
// Params: none
// Returns: scope_id (string), kind (string), count (int), current (int)
CALL () {
  MATCH (n:Entry)
  RETURN n.scope_id AS s, 'entries' AS k, count(*) AS c,
         sum(CASE WHEN n.soft_deleted_at IS NULL AND n.retired_at IS NULL
                  THEN 1 ELSE 0 END) AS cur
  UNION ALL
  MATCH (n:Document) RETURN n.scope_id AS s, 'documents' AS k, count(*) AS c, 0 AS cur
  UNION ALL
  MATCH (n:Chunk) RETURN n.scope_id AS s, 'chunks' AS k, count(*) AS c, 0 AS cur
  UNION ALL
  MATCH (n:Entity) RETURN n.scope_id AS s, 'entities' AS k, count(*) AS c, 0 AS cur
  UNION ALL
  MATCH (n:Session) RETURN n.scope_id AS s, 'sessions' AS k, count(*) AS c, 0 AS cur
  UNION ALL
  MATCH (n:Operation) RETURN n.scope_id AS s, 'operations' AS k, count(*) AS c, 0 AS cur
}
RETURN s AS scope_id, k AS kind, c AS count, cur AS current
ORDER BY scope_id, kind
