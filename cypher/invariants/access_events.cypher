// Purpose: access history that breaks its rules: an AccessEvent without scope, time or a known
//   kind, or carrying properties beyond id/scope_id/owner_id/kind/at/query (items must be
//   referenced by ACCESSED edges, never by stored ids); ACCESSED edges that start elsewhere than
//   an AccessEvent, end elsewhere than an Entry/Document/Chunk/Session, cross scopes or lack a
//   rank; the same item reached twice by one event.
// Params: $scope_id (string or null: every scope), $limit (int)
// Returns: event_id (string or null), scope_id (string or null), problem (string),
//   item_label (string or null), item_id (string or null)
CALL () {
  MATCH (ev:AccessEvent)
  WHERE $scope_id IS NULL OR ev.scope_id = $scope_id
  UNWIND [p IN [
      CASE WHEN ev.scope_id IS NULL THEN 'event without scope_id' END,
      CASE WHEN ev.at IS NULL THEN 'event without time (at)' END,
      CASE WHEN NOT coalesce(ev.kind, '') IN ['view', 'search', 'recall']
           THEN 'event of unknown kind' END,
      CASE WHEN any(k IN keys(ev)
                    WHERE NOT k IN ['id', 'scope_id', 'owner_id', 'kind', 'at', 'query'])
           THEN 'event stores other properties (items must be ACCESSED edges)' END
    ] WHERE p IS NOT NULL] AS problem
  RETURN ev.id AS event_id, ev.scope_id AS scope_id, problem,
         null AS item_label, null AS item_id
  UNION ALL
  MATCH (ev)-[a:ACCESSED]->(x)
  WHERE $scope_id IS NULL OR ev.scope_id = $scope_id OR x.scope_id = $scope_id
  WITH ev, a, x, CASE
      WHEN NOT ev:AccessEvent THEN 'ACCESSED edge from a node that is not an AccessEvent'
      WHEN NOT (x:Entry OR x:Document OR x:Chunk OR x:Session)
        THEN 'ACCESSED edge to a node that is not an Entry, Document, Chunk or Session'
      WHEN x.scope_id IS NULL OR ev.scope_id IS NULL OR x.scope_id <> ev.scope_id
        THEN 'ACCESSED edge crosses scopes'
      WHEN a.rank IS NULL OR a.rank < 1 THEN 'ACCESSED edge without a rank'
    END AS problem
  WHERE problem IS NOT NULL
  RETURN ev.id AS event_id, ev.scope_id AS scope_id, problem,
         labels(x)[0] AS item_label, x.id AS item_id
  UNION ALL
  MATCH (ev:AccessEvent)-[a:ACCESSED]->(x)
  WHERE $scope_id IS NULL OR ev.scope_id = $scope_id
  WITH ev, x, count(a) AS n
  WHERE n > 1
  RETURN ev.id AS event_id, ev.scope_id AS scope_id, 'event reaches one item twice' AS problem,
         labels(x)[0] AS item_label, x.id AS item_id
}
RETURN event_id, scope_id, problem, item_label, item_id
ORDER BY scope_id, event_id, problem, item_id
LIMIT $limit
