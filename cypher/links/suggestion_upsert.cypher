// Purpose: queue link suggestions. A pair is stored once (id from the scope and the pair in
//   canonical order); a pending pair's scores are refreshed; accepted or rejected pairs are left
//   as they are, so a rejected pair is never proposed again.
// Params: $rows (list of maps: id, a, b, from_id, to_id, relation_type, reason, weighted_score, semantic, keyword, entities, temporal, confidence), $scope_id (string), $now (datetime)
// Returns: id (string), created (bool), status (string)
UNWIND $rows AS row
MERGE (s:LinkSuggestion {id: row.id})
  ON CREATE SET s.scope_id = $scope_id, s.a = row.a, s.b = row.b, s.status = 'pending',
                s.created_at = $now, s._created = true
FOREACH (_ IN CASE WHEN s.status = 'pending' THEN [1] ELSE [] END |
  SET s.from_id = row.from_id, s.to_id = row.to_id, s.relation_type = row.relation_type,
      s.reason = row.reason, s.weighted_score = row.weighted_score, s.semantic = row.semantic,
      s.keyword = row.keyword, s.entities = row.entities, s.temporal = row.temporal,
      s.confidence = row.confidence, s.updated_at = $now)
WITH s, coalesce(s._created, false) AS created
REMOVE s._created
RETURN s.id AS id, created, s.status AS status
