// Purpose: claims and entities: composite indexes for the contradiction candidate lookups
//   (same subject, same object for attribution, same tool category) and entity resolution.
// Params: none
// Returns: nothing
CREATE INDEX claim_scope_subject IF NOT EXISTS FOR (n:Claim) ON (n.scope_id, n.subject_key);
CREATE INDEX claim_scope_object IF NOT EXISTS FOR (n:Claim) ON (n.scope_id, n.object_key);
CREATE INDEX claim_scope_category IF NOT EXISTS FOR (n:Claim) ON (n.scope_id, n.category);
CREATE INDEX claim_entry IF NOT EXISTS FOR (n:Claim) ON (n.entry_id);
CREATE INDEX entity_scope_name IF NOT EXISTS FOR (n:Entity) ON (n.scope_id, n.normalized_name);
