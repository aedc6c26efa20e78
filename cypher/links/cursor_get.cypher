// Purpose: when the last sweep of a scope started.
// Params: $id (string)
// Returns: position (datetime)
MATCH (c:LearnerCursor {id: $id})
RETURN c.position AS position
