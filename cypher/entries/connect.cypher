// Purpose: connect two entries of one scope with a typed knowledge edge; connecting twice
//   returns the existing edge (MERGE on endpoints and type). The type comes from an allow-list.
// Params: $source_id (string), $target_id (string), $rel_type (string, upper case), $weight (float), $reason (string or null), $origin (string), $now (datetime)
// Returns: weight, reason, origin, created_at, created (bool)
MATCH (a:Entry {id: $source_id}), (b:Entry {id: $target_id})
WHERE a.scope_id = b.scope_id
MERGE (a)-[r:$($rel_type)]->(b)
  ON CREATE SET r.weight = $weight, r.reason = $reason, r.origin = $origin,
                r.created_at = $now, r._created = true
WITH r, coalesce(r._created, false) AS created
REMOVE r._created
RETURN r.weight AS weight, r.reason AS reason, r.origin AS origin, r.created_at AS created_at,
       created
