// Whether a store knows a session: one of its sessions has the id, or one of
// its memories was stored with it (a session never opened here, as an import
// leaves it). Read-only.
// params: $id, $store
// returns: known
RETURN EXISTS { MATCH (s:Session {id: $id}) WHERE s.store = $store }
  OR EXISTS {
    // The session's index, named: left to choose, the planner may read the whole store by its (store) index.
    MATCH (m:Memory)
    USING INDEX m:Memory(sessionId, occurredAt)
    WHERE m.sessionId = $id AND m.occurredAt IS NOT NULL AND m.store = $store
  } AS known
