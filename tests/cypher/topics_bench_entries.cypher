// Purpose: benchmarks: bulk-create entries with precomputed vectors, content hashes and entity
//   mentions (MERGE on ids, so a re-run adds nothing).
// Params: $rows (list of maps: id, content, content_hash, embedding, entities (list of maps: id, name)), $scope_id (string), $owner_id (string), $model (string), $now (datetime)
// Returns: n (int)
UNWIND $rows AS row
MERGE (e:Entry {id: row.id})
  ON CREATE SET e.scope_id = $scope_id, e.owner_id = $owner_id, e.content = row.content,
                e.content_hash = row.content_hash, e.tags = [], e.embedding = row.embedding,
                e.embedding_model = $model, e.created_at = $now, e.updated_at = $now,
                e.entry_type = 'note', e.source = 'system', e.source_type = 'observed',
                e.confidence = 1.0, e.half_life_days = 7.0, e.pinned = false,
                e.emotional_valence = 'neutral', e.schema_fit = 0.5, e.score = 5.0,
                e.access_count = 0, e.confidence_state = 'active', e.metadata = '{}',
                e.context_hints = '{}'
WITH e, row
CALL (e, row) {
  UNWIND row.entities AS ent
  MERGE (n:Entity {id: ent.id})
    ON CREATE SET n.scope_id = $scope_id, n.name = ent.name, n.normalized_name = ent.name,
                  n.entity_type = 'ORG', n.mention_count = 0
  MERGE (e)-[m:MENTIONS]->(n)
    ON CREATE SET m.count = 1, n.mention_count = n.mention_count + 1
}
RETURN count(e) AS n
