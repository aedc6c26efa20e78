// Purpose: undo step: delete the nodes a change created, with their relationships.
// Params: $eids (list of strings: element ids from changes/locate)
// Returns: dropped (int)
MATCH (n) WHERE elementId(n) IN $eids
DETACH DELETE n
RETURN count(*) AS dropped
