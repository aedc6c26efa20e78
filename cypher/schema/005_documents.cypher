// Purpose: the documents pipeline: a vector index on document vectors (derived from their chunk
//   vectors, same model), lookups of a document by its source key and of chunks by document,
//   relation lookups by predicate, and the order of a document's pipeline runs.
// Params: $dimensions (int, the embedding model's vector size)
// Returns: nothing
CREATE VECTOR INDEX document_embedding IF NOT EXISTS FOR (n:Document) ON (n.embedding)
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CREATE INDEX document_source_key IF NOT EXISTS FOR (n:Document) ON (n.scope_id, n.collection, n.source_type, n.source_id);
CREATE INDEX chunk_document_id IF NOT EXISTS FOR (n:Chunk) ON (n.document_id);
CREATE INDEX relation_predicate IF NOT EXISTS FOR (n:Relation) ON (n.predicate);
CREATE INDEX document_status IF NOT EXISTS FOR (n:Document) ON (n.status);
