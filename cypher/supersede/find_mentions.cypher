// Purpose: current entries of a scope that mention a concept: full-text index candidates, kept
//   when the content contains the phrase (case-insensitive). Never a scan.
// Params: $scope_id (string), $lucene (string), $phrase (string), $limit (int)
// Returns: id (string)
CALL db.index.fulltext.queryNodes('entry_text', $lucene, {limit: $limit}) YIELD node AS e
WHERE e.scope_id = $scope_id AND e.retired_at IS NULL AND e.soft_deleted_at IS NULL
  AND toLower(e.content) CONTAINS $phrase
RETURN e.id AS id
