// Purpose: a page of a scope's documents (optionally one collection or status), newest first.
// Params: $scope_id (string), $collection (string or null), $status (string or null), $skip (int), $limit (int)
// Returns: doc (map: id, title, collection, source_type, source_id, status, chunk_count, token_count, updated_at, error)
MATCH (d:Document {scope_id: $scope_id})
WHERE ($collection IS NULL OR d.collection = $collection) AND ($status IS NULL OR d.status = $status)
RETURN d {.id, .title, .collection, .source_type, .source_id, .status, .chunk_count,
          .token_count, .updated_at, .created_at, .error, .path} AS doc
ORDER BY coalesce(d.updated_at, d.created_at) DESC, d.id
SKIP $skip LIMIT $limit
