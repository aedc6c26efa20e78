// Purpose: the entries an entry retired by superseding them (SUPERSEDES edge and retired_by both
//   name it), each with its lifecycle properties as they are now and the before-states of the
//   not-undone operations of its scope that changed it, newest first (so the state it had
//   before that supersession can be put back when the superseding entry is deleted).
// Params: $id (string)
// Returns: id (string), props (map), ops (list of strings, JSON before-states)
MATCH (x:Entry {id: $id})-[:SUPERSEDES]->(e:Entry)
WHERE e.retired_by = $id
CALL (e) {
  OPTIONAL MATCH (o:Operation {scope_id: e.scope_id})
  WHERE e.id IN o.entry_ids AND o.undone_at IS NULL AND o.kind <> 'forget'
  WITH o ORDER BY o.at DESC
  RETURN collect(o.before) AS ops
}
RETURN e.id AS id,
       {confidence: e.confidence, valid_to: e.valid_to, retired_at: e.retired_at,
        half_life_days: e.half_life_days, retired_by: e.retired_by,
        updated_at: e.updated_at} AS props,
       ops
