// Purpose: NEXT edges that break a conversation's or a document's chain: not between two turns
//   or two chunks, across sessions, documents or scopes, out of seq order, or where the chain branches (a turn with several next turns)
//   or merges (a turn with several previous turns).
// Params: $scope_id (string or null: every scope), $limit (int)
// Returns: from_id (string), to_id (string), scope_id (string or null), session_id (string or null), problems (list of strings)
MATCH (a)-[:NEXT]->(b)
WHERE $scope_id IS NULL OR a.scope_id = $scope_id OR b.scope_id = $scope_id
WITH a, b, [p IN [
    CASE WHEN NOT ((a:Turn AND b:Turn) OR (a:Chunk AND b:Chunk))
         THEN 'not between two turns or two chunks' END,
    CASE WHEN NOT coalesce(a.scope_id = b.scope_id, false) THEN 'across scopes' END,
    CASE WHEN a:Turn AND NOT coalesce(a.session_id = b.session_id, false)
         THEN 'across sessions' END,
    CASE WHEN a:Chunk AND NOT coalesce(a.document_id = b.document_id, false)
         THEN 'across documents' END,
    CASE WHEN NOT coalesce(a.seq < b.seq, false) THEN 'out of seq order' END,
    CASE WHEN COUNT { (a)-[:NEXT]->() } > 1 THEN 'branches: several next nodes' END,
    CASE WHEN COUNT { ()-[:NEXT]->(b) } > 1 THEN 'merges: several previous nodes' END
  ] WHERE p IS NOT NULL] AS problems
WHERE size(problems) > 0
RETURN a.id AS from_id, b.id AS to_id, a.scope_id AS scope_id, a.session_id AS session_id,
       problems
ORDER BY from_id, to_id
LIMIT $limit
