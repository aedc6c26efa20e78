// Purpose: backfill entries' captions and entry-type labels (one batch of the `init` backfill);
//   idempotent: setting the same caption and label twice changes nothing.
// Params: $rows (list of maps: id, caption (string), type_label (string or null))
// Returns: updated (int)
UNWIND $rows AS row
MATCH (e:Entry {id: row.id})
SET e.caption = row.caption
FOREACH (label IN CASE WHEN row.type_label IS NULL THEN [] ELSE [row.type_label] END |
  SET e:$(label))
RETURN count(e) AS updated
