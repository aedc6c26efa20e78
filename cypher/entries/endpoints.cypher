// Purpose: the scopes of two entries (to validate a connect before writing).
// Params: $source_id (string), $target_id (string)
// Returns: source_scope (string or null), target_scope (string or null)
OPTIONAL MATCH (a:Entry {id: $source_id})
OPTIONAL MATCH (b:Entry {id: $target_id})
RETURN a.scope_id AS source_scope, b.scope_id AS target_scope
