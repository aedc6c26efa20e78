// Purpose: record that entries were retrieved: access_count + 1, last_accessed_at = now, and a
//   stale entry (unused for $stale_days and not verified) wakes up as observed.
// Params: $ids (list of strings), $now (datetime), $stale_days (float)
// Returns: n (int)
MATCH (e:Entry)
WHERE e.id IN $ids
WITH e, duration.inSeconds(coalesce(e.last_accessed_at, e.created_at), $now).seconds / 86400.0
     AS idle
SET e.access_count = coalesce(e.access_count, 0) + 1,
    e.last_accessed_at = $now,
    e.confidence_state = CASE WHEN idle > $stale_days AND e.confidence_state <> 'verified'
                              THEN 'observed' ELSE e.confidence_state END
RETURN count(e) AS n
