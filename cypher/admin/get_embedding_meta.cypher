// Purpose: read the embedding model and vector size the vector indexes were built for.
// Params: none
// Returns: model, dimensions, updated_at (no row before `init`)
MATCH (m:SchemaMeta {key: 'embedding'})
RETURN m.model AS model, m.dimensions AS dimensions, m.updated_at AS updated_at
