// Purpose: the vector indexes on Neo4j 2026+, each with the filter properties its lookups filter
//   on (Cypher 25 `WITH [...]` additional properties, used by `SEARCH ... WHERE` inside the
//   index): scope everywhere; entries also by entry type, retirement and soft deletion; documents
//   by soft deletion. Applied before the migrations, whose plain definitions of the same names
//   are then no-ops. Keep the lists equal to schema.VECTOR_FILTERS.
// Params: $dimensions (int, the embedding model's vector size)
// Returns: nothing
CYPHER 25 CREATE VECTOR INDEX entry_embedding IF NOT EXISTS FOR (n:Entry) ON (n.embedding)
  WITH [n.scope_id, n.entry_type, n.retired_at, n.soft_deleted_at]
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CYPHER 25 CREATE VECTOR INDEX chunk_embedding IF NOT EXISTS FOR (n:Chunk) ON (n.embedding)
  WITH [n.scope_id]
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CYPHER 25 CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (n:Entity) ON (n.embedding)
  WITH [n.scope_id]
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CYPHER 25 CREATE VECTOR INDEX topic_embedding IF NOT EXISTS FOR (n:Topic) ON (n.embedding)
  WITH [n.scope_id]
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CYPHER 25 CREATE VECTOR INDEX session_embedding IF NOT EXISTS FOR (n:Session) ON (n.embedding)
  WITH [n.scope_id]
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CYPHER 25 CREATE VECTOR INDEX document_embedding IF NOT EXISTS FOR (n:Document) ON (n.embedding)
  WITH [n.scope_id, n.soft_deleted_at]
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
