// Purpose: Browser: the story of a project that `recollect-graph demo` loaded: commits that
//   reference the documented sections they touch, the chains of consecutive commits
//   (LEADS_TO) around them, and the scope's contradictions, each capped to stay readable.
// Params: $scope (string)
// Returns: refs (commit -> section paths), chains (LEADS_TO paths), conflicts (CONTRADICTS paths)
OPTIONAL MATCH r = (:Entry {scope_id: $scope, entry_type: 'commit'})-[:REFERENCES]->(:Entry)
WITH collect(r)[..40] AS refs
OPTIONAL MATCH l = (a:Entry {scope_id: $scope, entry_type: 'commit'})-[:LEADS_TO]->(b:Entry)
WHERE EXISTS { (a)-[:REFERENCES]->() } OR EXISTS { (b)-[:REFERENCES]->() }
WITH refs, collect(l)[..40] AS chains
OPTIONAL MATCH x = (:Entry {scope_id: $scope})-[:CONTRADICTS]->(:Entry)
RETURN refs, chains, collect(x)[..20] AS conflicts
