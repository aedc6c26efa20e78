// Purpose: every index with its kind, target, state and options (vector dimensions live there).
// Params: none
// Returns: name, type, entity_type, labels, properties, state, population_percent, options
SHOW INDEXES
YIELD name, type, entityType, labelsOrTypes, properties, state, populationPercent, options
RETURN name, type, entityType AS entity_type, labelsOrTypes AS labels, properties, state,
       populationPercent AS population_percent, options
ORDER BY name
