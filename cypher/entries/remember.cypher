// Purpose: create entries idempotently. The id is derived from (scope, content hash) or
//   (scope, source id), so the same knowledge twice MERGEs onto one node (backed by the id
//   uniqueness constraint, so concurrent writers cannot make two). An existing entry is returned
//   unchanged with created = false. A new entry also gets its entry type as a second label
//   (vocabulary.ENTRY_TYPE_LABELS: :Entry:Decision, :Entry:Commit...) for Browser's style.
// Params: $rows (list of maps: id, props (map of entry properties, embedding and caption
//   included), type_label (string or null))
// Returns: entry (map, no embedding), created (bool)
UNWIND $rows AS row
MERGE (e:Entry {id: row.id})
  ON CREATE SET e += row.props, e.updated_at = row.props.created_at, e.access_count = 0,
                e.confidence_state = 'active', e._created = true
WITH e, row, coalesce(e._created, false) AS created
REMOVE e._created
FOREACH (label IN CASE WHEN created AND row.type_label IS NOT NULL THEN [row.type_label] ELSE []
                  END | SET e:$(label))
RETURN e {.*, embedding: null, context_embedding: null} AS entry, created
