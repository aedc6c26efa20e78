// Purpose: existing claims that could contradict new ones: same subject, or (for attribution)
//   the same work item, or (for tool choices) the same category when one subject covers the
//   other ("we", "build" within "frontend build"). Only tool choices compare across subjects
//   (a slot or a preference conflicts on its own subject: the first branch), so the other
//   branches run only for the claims they apply to. Only current entries of the scope with
//   confidence above 0.3 count. Each branch returns at most 25 claims per new claim; the first
//   two are exact index seeks (schema 007), the tool-choice one reads the category's claims until 25 share a
//   subject (a scope with many claims of one category and few shared subjects reads more).
//   Reads only.
// Params: $claims (list of maps: i, subject_key, predicate, object_key, category), $scope_id (string), $owner_id (string or null), $exclude_ids (list of strings), $now (datetime)
// Returns: i (int), claim (map), entry_id (string)
UNWIND $claims AS nc
CALL (nc) {
  MATCH (c:Claim {scope_id: $scope_id, subject_key: nc.subject_key, predicate: nc.predicate})
  RETURN c LIMIT 25
  UNION
  // the seek value is null (no rows read) where the branch does not apply: the planner filters
  // on nc only after the seek
  MATCH (c:Claim {scope_id: $scope_id,
                  object_key: CASE WHEN nc.predicate IN ['works_on', 'created'] THEN nc.object_key END})
  WHERE c.predicate = nc.predicate
  RETURN c LIMIT 25
  UNION
  MATCH (c:Claim {scope_id: $scope_id, predicate: 'uses',
                  category: CASE WHEN nc.predicate = 'uses' THEN nc.category END})
  WHERE (c.subject_key = 'we' OR nc.subject_key = 'we'
         OR c.subject_key CONTAINS nc.subject_key OR nc.subject_key CONTAINS c.subject_key)
  RETURN c LIMIT 25
}
MATCH (e:Entry)-[:ASSERTS]->(c)
WHERE e.retired_at IS NULL AND e.soft_deleted_at IS NULL AND coalesce(e.confidence, 1.0) > 0.3
  AND (e.valid_to IS NULL OR e.valid_to > $now)
  AND ($owner_id IS NULL OR e.owner_id = $owner_id)
  AND NOT e.id IN $exclude_ids
RETURN nc.i AS i, properties(c) AS claim, e.id AS entry_id
