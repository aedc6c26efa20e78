// Purpose: claims whose entry is gone or is not the one entry that ASSERTS them (same id, same
//   scope), and claims about an entity (entity_id set) with no ABOUT edge.
// Params: $scope_id (string or null: every scope), $limit (int)
// Returns: id (string), scope_id (string or null), entry_id (string or null), asserted_by (list of strings), problems (list of strings)
MATCH (c:Claim)
WHERE $scope_id IS NULL OR c.scope_id = $scope_id
OPTIONAL MATCH (e:Entry)-[:ASSERTS]->(c)
WITH c, collect(e) AS asserters
WITH c, asserters, [p IN [
    CASE WHEN size(asserters) = 0 THEN 'no entry asserts it' END,
    CASE WHEN size(asserters) > 1 THEN 'several entries assert it' END,
    CASE WHEN size(asserters) = 1 AND NOT coalesce(asserters[0].id = c.entry_id, false)
         THEN 'entry_id is not the asserting entry' END,
    CASE WHEN size(asserters) = 1 AND NOT coalesce(asserters[0].scope_id = c.scope_id, false)
         THEN 'scope differs from its entry' END,
    CASE WHEN c.entity_id IS NOT NULL AND NOT EXISTS { (c)-[:ABOUT]->(:Entity) }
         THEN 'about no entity' END
  ] WHERE p IS NOT NULL] AS problems
WHERE size(problems) > 0
RETURN c.id AS id, c.scope_id AS scope_id, c.entry_id AS entry_id,
       [x IN asserters | x.id] AS asserted_by, problems
ORDER BY id
LIMIT $limit
