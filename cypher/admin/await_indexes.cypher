// Purpose: block until every index is ONLINE (or fail after the timeout).
// Params: $timeout_s (int, seconds)
// Returns: nothing
CALL db.awaitIndexes($timeout_s)
