// Purpose: a batch of entries written before captions and entry-type labels existed (the
//   backfill that `init` runs); conversation turns keep their Turn label and speaker caption.
// Params: $limit (int)
// Returns: id (string), title (string or null), content (string or null), entry_type (string or null)
MATCH (e:Entry)
WHERE e.caption IS NULL AND NOT e:Turn
RETURN e.id AS id, e.title AS title, e.content AS content, e.entry_type AS entry_type
LIMIT $limit
