// Purpose: list the schema migrations recorded in the graph, oldest first.
// Params: none
// Returns: version, name, checksum, applied_at
MATCH (m:SchemaMigration)
RETURN m.version AS version, m.name AS name, m.checksum AS checksum, m.applied_at AS applied_at
ORDER BY m.version
