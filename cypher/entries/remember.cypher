// Purpose: create entries idempotently. The id is derived from (scope, content hash) or
//   (scope, source id), so the same knowledge twice MERGEs onto one node (backed by the id
//   uniqueness constraint, so concurrent writers cannot make two). An existing entry is returned
//   unchanged with created = false.
// Params: $rows (list of maps: id, props (map of entry properties, embedding included))
// Returns: entry (map, no embedding), created (bool)
UNWIND $rows AS row
MERGE (e:Entry {id: row.id})
  ON CREATE SET e += row.props, e.updated_at = row.props.created_at, e.access_count = 0,
                e.confidence_state = 'active', e._created = true
WITH e, coalesce(e._created, false) AS created
REMOVE e._created
RETURN e {.*, embedding: null} AS entry, created
