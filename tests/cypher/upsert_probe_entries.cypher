// Purpose: idempotent batch upsert of bare entries; used by the db layer's batching tests and
//   by benchmarks as the floor cost of an UNWIND write.
// Params: $rows (list of maps: id, content), $scope_id (string)
// Returns: n (rows written in this batch)
UNWIND $rows AS row
MERGE (e:Entry {id: row.id})
  ON CREATE SET e.scope_id = $scope_id, e.created_at = datetime()
SET e.content = row.content
RETURN count(e) AS n
