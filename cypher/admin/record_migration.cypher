// Purpose: record that a schema migration was applied (idempotent: the first application's time
//   is kept; the checksum is updated so a changed file is visible).
// Params: $version (int), $name (string), $checksum (string)
// Returns: version, applied_at
MERGE (m:SchemaMigration {version: $version})
  ON CREATE SET m.applied_at = datetime()
SET m.name = $name, m.checksum = $checksum
RETURN m.version AS version, m.applied_at AS applied_at
