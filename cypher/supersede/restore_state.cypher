// Purpose: undo: put lifecycle properties back as they were (null removes the property).
// Params: $rows (list of maps: id, props)
// Returns: id (string)
UNWIND $rows AS row
MATCH (e:Entry {id: row.id})
SET e.confidence = row.props.confidence, e.valid_to = row.props.valid_to,
    e.retired_at = row.props.retired_at, e.half_life_days = row.props.half_life_days,
    e.retired_by = row.props.retired_by, e.updated_at = row.props.updated_at
RETURN e.id AS id
