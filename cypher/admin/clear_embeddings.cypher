// Purpose: remove every stored vector (before rebuilding the vector indexes for another model),
//   in batches so a large graph does not need one huge transaction.
// Params: none
// Returns: nothing
MATCH (n) WHERE n.embedding IS NOT NULL
CALL (n) {
  REMOVE n.embedding, n.embedding_model
} IN TRANSACTIONS OF 5000 ROWS
