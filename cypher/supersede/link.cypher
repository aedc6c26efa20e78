// Purpose: typed edges written by a lifecycle operation (SUPERSEDES, DERIVED_FROM), idempotent;
//   reports whether each was new so undo removes only what the operation made.
// Params: $rows (list of maps: source_id, target_id, reason), $rel_type (string, allow-listed), $origin (string), $now (datetime)
// Returns: source_id, target_id, created (bool)
UNWIND $rows AS row
MATCH (a:Entry {id: row.source_id}), (b:Entry {id: row.target_id})
MERGE (a)-[r:$($rel_type)]->(b)
  ON CREATE SET r.reason = row.reason, r.origin = $origin, r.weight = 1.0, r.created_at = $now,
                r._created = true
WITH row, r, coalesce(r._created, false) AS created
REMOVE r._created
RETURN row.source_id AS source_id, row.target_id AS target_id, created
