// Memories whose mechanical links are not written yet: only they hold
// linkPendingAt (it is removed once they are linked), so the reconciliation
// finds the ones a crash left unlinked without walking the store.
// params: none
// returns: none
CREATE INDEX memory_link_pending IF NOT EXISTS FOR (m:Memory) ON (m.linkPendingAt)
