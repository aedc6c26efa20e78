// Purpose: every constraint with its kind and target.
// Params: none
// Returns: name, type, labels, properties
SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties
RETURN name, type, labelsOrTypes AS labels, properties
ORDER BY name
