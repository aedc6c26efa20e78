// Purpose: re-create a deleted entry from its snapshot (undo of forget), with the edges whose
//   other end still exists. Idempotent: MERGE on ids and on (endpoints, type).
// Params: $props (map), $edges (list of maps: type, out, other, props)
// Returns: id (string)
MERGE (e:Entry {id: $props.id})
SET e += $props
WITH e
UNWIND (CASE WHEN size($edges) = 0 THEN [null] ELSE $edges END) AS edge
OPTIONAL MATCH (o:Entry {id: edge.other})
FOREACH (_ IN CASE WHEN o IS NOT NULL AND edge.out THEN [1] ELSE [] END |
  MERGE (e)-[r:$(edge.type)]->(o) SET r += edge.props)
FOREACH (_ IN CASE WHEN o IS NOT NULL AND NOT edge.out THEN [1] ELSE [] END |
  MERGE (o)-[r:$(edge.type)]->(e) SET r += edge.props)
RETURN DISTINCT e.id AS id
