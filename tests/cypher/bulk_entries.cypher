// Purpose: bulk-create entries with precomputed vectors (benchmarks and imports of data that
//   already carries embeddings): one UNWIND per batch, MERGE on id so a re-run adds nothing.
// Params: $rows (list of maps: id, content, tags, embedding, created_at), $scope_id (string), $owner_id (string), $model (string)
// Returns: n (int)
UNWIND $rows AS row
MERGE (e:Entry {id: row.id})
  ON CREATE SET e.scope_id = $scope_id, e.owner_id = $owner_id, e.content = row.content,
                e.tags = row.tags, e.embedding = row.embedding, e.embedding_model = $model,
                e.created_at = row.created_at, e.updated_at = row.created_at,
                e.entry_type = 'note', e.source = 'system', e.source_type = 'observed',
                e.confidence = 1.0, e.half_life_days = 7.0, e.pinned = false,
                e.emotional_valence = 'neutral', e.schema_fit = 0.5, e.score = 5.0,
                e.access_count = 0, e.confidence_state = 'active', e.metadata = '{}',
                e.context_hints = '{}'
RETURN count(e) AS n
