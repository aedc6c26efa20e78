// Purpose: record the embedding model and vector size the vector indexes are built for.
// Params: $model (string), $dimensions (int)
// Returns: model, dimensions
MERGE (m:SchemaMeta {key: 'embedding'})
SET m.model = $model, m.dimensions = $dimensions, m.updated_at = datetime()
RETURN m.model AS model, m.dimensions AS dimensions
