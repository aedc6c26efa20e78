// Purpose: store entity mentions of chunks: entities are per scope (MERGE on a scope-derived id;
//   a new one gets its name, type, vector and first-seen time; a name merged into an existing
//   entity by similarity is kept in its aliases), MENTIONS {count, snippet, surface}.
// Params: $scope_id (string), $model (string), $now (datetime), $entities (list of maps: id, name, key, entity_type, embedding (list or null), alias (string or null)), $rows (list of maps: source_id, entity_id, count, snippet, surface)
// Returns: mentions (int)
CALL () {
  UNWIND $entities AS en
  MERGE (e:Entity {id: en.id})
    ON CREATE SET e.scope_id = $scope_id, e.name = en.name, e.normalized_name = en.key,
                  e.entity_type = en.entity_type, e.first_seen_at = $now, e.mention_count = 0,
                  e.aliases = []
  SET e.last_seen_at = $now,
      e.aliases = CASE WHEN en.alias IS NULL OR en.alias IN coalesce(e.aliases, [])
                       THEN coalesce(e.aliases, []) ELSE coalesce(e.aliases, []) + en.alias END
  FOREACH (_ IN CASE WHEN en.embedding IS NULL OR e.embedding IS NOT NULL THEN [] ELSE [1] END |
    SET e.embedding = en.embedding, e.embedding_model = $model)
}
UNWIND $rows AS row
OPTIONAL MATCH (sc:Chunk {id: row.source_id, scope_id: $scope_id})
OPTIONAL MATCH (se:Entry {id: row.source_id, scope_id: $scope_id})
WITH *, coalesce(sc, se) AS s
WHERE s IS NOT NULL
MATCH (e:Entity {id: row.entity_id, scope_id: $scope_id})
MERGE (s)-[m:MENTIONS]->(e)
SET m.count = row.count, m.snippet = row.snippet, m.surface = row.surface
WITH DISTINCT e
OPTIONAL MATCH (e)<-[m:MENTIONS]-()
WITH e, sum(coalesce(m.count, 1)) AS n
SET e.mention_count = n
RETURN count(e) AS mentions
