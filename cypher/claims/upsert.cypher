// Purpose: store the claims of entries (idempotent: claim ids derive from the entry and the claim)
//   with (Entry)-[:ASSERTS]->(Claim), and for a claim about an entity (entity_id not null)
//   (Claim)-[:ABOUT]->(Entity) and (Entry)-[:MENTIONS]->(Entity); entities are per scope (MERGE
//   on a scope-derived id of the entity extractor's key, so documents' mentions meet them).
// Params: $rows (list of maps: entry_id, claims (list of maps: id, entity_id (string or null), about, about_key, about_type, subject, subject_key, predicate, object, object_key, polarity, category, qualifier, modality, time))
// Returns: n (int)
UNWIND $rows AS row
MATCH (e:Entry {id: row.entry_id})
UNWIND row.claims AS c
MERGE (cl:Claim {id: c.id})
  ON CREATE SET cl.scope_id = e.scope_id, cl.entry_id = e.id, cl.subject = c.subject,
                cl.subject_key = c.subject_key, cl.predicate = c.predicate, cl.object = c.object,
                cl.object_key = c.object_key, cl.polarity = c.polarity, cl.category = c.category,
                cl.qualifier = c.qualifier, cl.modality = c.modality, cl.time = c.time,
                cl.entity_id = c.entity_id, cl.status = 'asserted'
MERGE (e)-[:ASSERTS]->(cl)
WITH e, cl, c
CALL (e, cl, c) {
  WITH e, cl, c WHERE c.entity_id IS NOT NULL
  MERGE (ent:Entity {id: c.entity_id})
    ON CREATE SET ent.scope_id = e.scope_id, ent.name = c.about,
                  ent.normalized_name = c.about_key, ent.entity_type = c.about_type,
                  ent.mention_count = 0
  MERGE (cl)-[:ABOUT]->(ent)
  MERGE (e)-[m:MENTIONS]->(ent)
    ON CREATE SET ent.mention_count = ent.mention_count + 1
}
RETURN count(cl) AS n
