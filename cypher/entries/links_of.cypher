// Purpose: knowledge edges of entries (both directions), at most $per_entry each, for display.
// Params: $ids (list of strings), $per_entry (int)
// Returns: id (string), links (list of maps: relation, direction, other_id, other_title, weight, reason)
UNWIND $ids AS id
MATCH (e:Entry {id: id})
OPTIONAL MATCH (e)-[r]-(o:Entry)
WITH id, e, r, o ORDER BY r.weight DESC
WITH id, collect(CASE WHEN r IS NULL THEN null ELSE {relation: toLower(type(r)),
  direction: CASE WHEN startNode(r) = e THEN 'out' ELSE 'in' END, other_id: o.id,
  other_title: o.title, weight: r.weight, reason: r.reason} END)[0..$per_entry] AS links
RETURN id, links
