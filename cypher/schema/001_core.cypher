// Purpose: the core schema of the graph (ARCHITECTURE.md): a uniqueness constraint on the id
//   of every node type, range indexes on scope_id, owner and time fields and on the keys writes
//   look up (source_id, content_hash), native VECTOR indexes (cosine, $dimensions) on the
//   Entry, Chunk, Entity, Topic and Session embeddings, and FULLTEXT indexes on entry text,
//   chunk text, entity names and session text. Every statement is IF NOT EXISTS: re-applying
//   is a no-op.
// Params: $dimensions (int, the embedding model's vector size)
// Returns: nothing

// uniqueness constraints (Community edition has property uniqueness only)
CREATE CONSTRAINT entry_id IF NOT EXISTS FOR (n:Entry) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT claim_id IF NOT EXISTS FOR (n:Claim) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (n:Entity) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT relation_id IF NOT EXISTS FOR (n:Relation) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT collection_id IF NOT EXISTS FOR (n:Collection) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT document_id IF NOT EXISTS FOR (n:Document) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT chunk_id IF NOT EXISTS FOR (n:Chunk) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT pipelinerun_id IF NOT EXISTS FOR (n:PipelineRun) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT topic_id IF NOT EXISTS FOR (n:Topic) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT session_scope_id IF NOT EXISTS FOR (n:Session) REQUIRE (n.scope_id, n.id) IS UNIQUE;
CREATE CONSTRAINT turn_id IF NOT EXISTS FOR (n:Turn) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT identifier_id IF NOT EXISTS FOR (n:Identifier) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT marker_id IF NOT EXISTS FOR (n:Marker) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT linksuggestion_id IF NOT EXISTS FOR (n:LinkSuggestion) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT reflection_id IF NOT EXISTS FOR (n:Reflection) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT learnercursor_id IF NOT EXISTS FOR (n:LearnerCursor) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT operation_id IF NOT EXISTS FOR (n:Operation) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT schema_migration_version IF NOT EXISTS FOR (n:SchemaMigration) REQUIRE n.version IS UNIQUE;
CREATE CONSTRAINT schema_meta_key IF NOT EXISTS FOR (n:SchemaMeta) REQUIRE n.key IS UNIQUE;

// range indexes: tenancy
CREATE INDEX entry_scope IF NOT EXISTS FOR (n:Entry) ON (n.scope_id);
CREATE INDEX claim_scope IF NOT EXISTS FOR (n:Claim) ON (n.scope_id);
CREATE INDEX entity_scope IF NOT EXISTS FOR (n:Entity) ON (n.scope_id);
CREATE INDEX relation_scope IF NOT EXISTS FOR (n:Relation) ON (n.scope_id);
CREATE INDEX collection_scope IF NOT EXISTS FOR (n:Collection) ON (n.scope_id);
CREATE INDEX document_scope IF NOT EXISTS FOR (n:Document) ON (n.scope_id);
CREATE INDEX chunk_scope IF NOT EXISTS FOR (n:Chunk) ON (n.scope_id);
CREATE INDEX pipelinerun_scope IF NOT EXISTS FOR (n:PipelineRun) ON (n.scope_id);
CREATE INDEX topic_scope IF NOT EXISTS FOR (n:Topic) ON (n.scope_id);
CREATE INDEX session_scope IF NOT EXISTS FOR (n:Session) ON (n.scope_id);
CREATE INDEX identifier_scope IF NOT EXISTS FOR (n:Identifier) ON (n.scope_id);
CREATE INDEX marker_scope IF NOT EXISTS FOR (n:Marker) ON (n.scope_id);
CREATE INDEX linksuggestion_scope IF NOT EXISTS FOR (n:LinkSuggestion) ON (n.scope_id);
CREATE INDEX reflection_scope IF NOT EXISTS FOR (n:Reflection) ON (n.scope_id);
CREATE INDEX learnercursor_scope IF NOT EXISTS FOR (n:LearnerCursor) ON (n.scope_id);
CREATE INDEX operation_scope IF NOT EXISTS FOR (n:Operation) ON (n.scope_id);
CREATE INDEX entry_scope_owner IF NOT EXISTS FOR (n:Entry) ON (n.scope_id, n.owner_id);

// range indexes: time
CREATE INDEX entry_created_at IF NOT EXISTS FOR (n:Entry) ON (n.created_at);
CREATE INDEX entry_updated_at IF NOT EXISTS FOR (n:Entry) ON (n.updated_at);
CREATE INDEX entry_valid_from IF NOT EXISTS FOR (n:Entry) ON (n.valid_from);
CREATE INDEX entry_valid_to IF NOT EXISTS FOR (n:Entry) ON (n.valid_to);
CREATE INDEX entry_retired_at IF NOT EXISTS FOR (n:Entry) ON (n.retired_at);
CREATE INDEX entry_last_accessed_at IF NOT EXISTS FOR (n:Entry) ON (n.last_accessed_at);
CREATE INDEX document_updated_at IF NOT EXISTS FOR (n:Document) ON (n.updated_at);
CREATE INDEX session_started_at IF NOT EXISTS FOR (n:Session) ON (n.started_at);
CREATE INDEX session_last_turn_at IF NOT EXISTS FOR (n:Session) ON (n.last_turn_at);
CREATE INDEX operation_at IF NOT EXISTS FOR (n:Operation) ON (n.at);
CREATE INDEX pipelinerun_started_at IF NOT EXISTS FOR (n:PipelineRun) ON (n.started_at);

// range indexes: idempotency and lookup keys
CREATE INDEX entry_source_id IF NOT EXISTS FOR (n:Entry) ON (n.source_id);
CREATE INDEX entry_content_hash IF NOT EXISTS FOR (n:Entry) ON (n.content_hash);
CREATE INDEX entry_entry_type IF NOT EXISTS FOR (n:Entry) ON (n.entry_type);
CREATE INDEX document_source_id IF NOT EXISTS FOR (n:Document) ON (n.source_id);
CREATE INDEX document_content_hash IF NOT EXISTS FOR (n:Document) ON (n.content_hash);
CREATE INDEX chunk_content_hash IF NOT EXISTS FOR (n:Chunk) ON (n.content_hash);
CREATE INDEX entity_normalized_name IF NOT EXISTS FOR (n:Entity) ON (n.normalized_name);
CREATE INDEX claim_subject_key IF NOT EXISTS FOR (n:Claim) ON (n.subject_key);
CREATE INDEX identifier_value IF NOT EXISTS FOR (n:Identifier) ON (n.value);

// native vector indexes (HNSW, cosine); vectors are normalised float lists
CREATE VECTOR INDEX entry_embedding IF NOT EXISTS FOR (n:Entry) ON (n.embedding)
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX chunk_embedding IF NOT EXISTS FOR (n:Chunk) ON (n.embedding)
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (n:Entity) ON (n.embedding)
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX topic_embedding IF NOT EXISTS FOR (n:Topic) ON (n.embedding)
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX session_embedding IF NOT EXISTS FOR (n:Session) ON (n.embedding)
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};

// full-text indexes (Lucene); list properties such as tags are indexed. Text uses the english
//   analyzer (stop words removed, stemming), names the standard analyzer without stop words.
CREATE FULLTEXT INDEX entry_text IF NOT EXISTS FOR (n:Entry) ON EACH [n.title, n.content, n.summary, n.description, n.tags, n.scope_id]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX chunk_text IF NOT EXISTS FOR (n:Chunk) ON EACH [n.text, n.heading, n.scope_id]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX entity_name IF NOT EXISTS FOR (n:Entity) ON EACH [n.name, n.aliases];
CREATE FULLTEXT INDEX session_text IF NOT EXISTS FOR (n:Session) ON EACH [n.title, n.initial_request, n.summary, n.keywords, n.topics, n.handoff, n.scope_id]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
