// Purpose: Browser: a scope's contradictions: CONTRADICTS edges between entries (type, score and
//   reason on the edge) with the claims each side asserts about the entity they disagree on.
// Params: $scope (string)
// Returns: p (contradiction path), q (claim path through the shared entity, or null)
MATCH p = (a:Entry {scope_id: $scope})-[:CONTRADICTS]->(b:Entry)
OPTIONAL MATCH q = (a)-[:ASSERTS]->(:Claim)-[:ABOUT]->(:Entity)<-[:ABOUT]-(:Claim)<-[:ASSERTS]-(b)
RETURN p, q
LIMIT 200
