// Purpose: drop one index by name (used to rebuild vector indexes for a new embedding size).
//   The name comes from SHOW INDEXES, never from user text.
// Params: $name (string)
// Returns: nothing
DROP INDEX $name IF EXISTS
