// Purpose: record contradictions as (new)-[:CONTRADICTS]->(existing) edges with type, score and
//   reason, open until resolved (idempotent per pair).
// Params: $rows (list of maps: source_id, target_id, type, score, reason, claim, existing_claim), $now (datetime)
// Returns: n (int)
UNWIND $rows AS row
MATCH (a:Entry {id: row.source_id}), (b:Entry {id: row.target_id})
MERGE (a)-[r:CONTRADICTS]->(b)
  ON CREATE SET r.type = row.type, r.score = row.score, r.reason = row.reason,
                r.claim = row.claim, r.existing_claim = row.existing_claim, r.status = 'open',
                r.origin = 'check', r.weight = row.score, r.created_at = $now
RETURN count(r) AS n
