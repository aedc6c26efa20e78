// Purpose: sessions whose bookkeeping disagrees with their turns: turn_count differs from the
//   turns they hold, or two turns share a position (seq).
// Params: $scope_id (string or null: every scope), $limit (int)
// Returns: id (string), scope_id (string or null), turn_count (int or null), turns (int), duplicate_seqs (list of ints), problems (list of strings)
MATCH (s:Session)
WHERE $scope_id IS NULL OR s.scope_id = $scope_id
OPTIONAL MATCH (s)-[:HAS_TURN]->(t:Turn)
WITH s, collect(t.seq) AS seqs
WITH s, size(seqs) AS turns,
     [x IN seqs WHERE size([y IN seqs WHERE y = x]) > 1] AS dup
WITH s, turns, reduce(acc = [], x IN dup | CASE WHEN x IN acc THEN acc ELSE acc + x END) AS dups
WITH s, turns, dups, [p IN [
    CASE WHEN coalesce(s.turn_count, 0) <> turns THEN 'turn_count differs from its turns' END,
    CASE WHEN size(dups) > 0 THEN 'turns share a seq' END
  ] WHERE p IS NOT NULL] AS problems
WHERE size(problems) > 0
RETURN s.id AS id, s.scope_id AS scope_id, s.turn_count AS turn_count, turns,
       dups AS duplicate_seqs, problems
ORDER BY scope_id, id
LIMIT $limit
