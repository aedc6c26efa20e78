// Purpose: the functions plugins add (not built in), which a read-only ad-hoc query may not call.
// Params: none
// Returns: name (string)
SHOW FUNCTIONS YIELD name, isBuiltIn
WHERE NOT isBuiltIn
RETURN name
