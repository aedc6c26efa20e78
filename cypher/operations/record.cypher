// Purpose: write the audit record of a destructive change (who, when, what, before-state) so it
//   can be explained and undone.
// Params: $id (string), $kind (string), $scope_id (string), $actor (string or null), $now (datetime), $entry_ids (list of strings), $reason (string or null), $before (string, JSON)
// Returns: id (string)
CREATE (o:Operation {id: $id, kind: $kind, scope_id: $scope_id, actor: $actor, at: $now,
                     entry_ids: $entry_ids, reason: $reason, before: $before})
RETURN o.id AS id
