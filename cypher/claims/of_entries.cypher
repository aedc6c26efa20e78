// Purpose: the claims entries assert (for display and explanation).
// Params: $ids (list of strings)
// Returns: entry_id (string), claim (map)
MATCH (e:Entry)-[:ASSERTS]->(c:Claim)
WHERE e.id IN $ids
RETURN e.id AS entry_id, properties(c) AS claim
ORDER BY e.id, c.predicate
