// Purpose: store the claims of entries (idempotent: claim ids derive from the entry and the claim)
//   with (Entry)-[:ASSERTS]->(Claim)-[:ABOUT]->(Entity) and (Entry)-[:MENTIONS]->(Entity) for the
//   claim's subject; entities are per scope (MERGE on a scope-derived id).
// Params: $rows (list of maps: entry_id, claims (list of maps: id, entity_id, subject, subject_key, predicate, object, object_key, polarity, category, qualifier, modality, time, subject_type))
// Returns: n (int)
UNWIND $rows AS row
MATCH (e:Entry {id: row.entry_id})
UNWIND row.claims AS c
MERGE (cl:Claim {id: c.id})
  ON CREATE SET cl.scope_id = e.scope_id, cl.entry_id = e.id, cl.subject = c.subject,
                cl.subject_key = c.subject_key, cl.predicate = c.predicate, cl.object = c.object,
                cl.object_key = c.object_key, cl.polarity = c.polarity, cl.category = c.category,
                cl.qualifier = c.qualifier, cl.modality = c.modality, cl.time = c.time,
                cl.status = 'asserted'
MERGE (e)-[:ASSERTS]->(cl)
MERGE (ent:Entity {id: c.entity_id})
  ON CREATE SET ent.scope_id = e.scope_id, ent.name = c.subject,
                ent.normalized_name = c.subject_key, ent.entity_type = c.subject_type,
                ent.mention_count = 0
MERGE (cl)-[:ABOUT]->(ent)
MERGE (e)-[m:MENTIONS]->(ent)
  ON CREATE SET ent.mention_count = ent.mention_count + 1
RETURN count(cl) AS n
