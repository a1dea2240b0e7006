import { loadStatements } from '../../adapters/neo4j/index.js';

export const Q = loadStatements('hippocampus', {
  storeMemories: 'store-memories',
  getMemory: 'get-memory',
  getMemories: 'get-memories',
  accessMemory: 'access-memory',
  claimMemory: 'claim-memory',
  reclassifyMemory: 'reclassify-memory',
  changeTiers: 'change-tiers',
  createConsolidated: 'create-consolidated',
  forgetMemory: 'forget-memory',
  getEvent: 'get-event',
  listEvents: 'list-events',
  memoryHistory: 'memory-history',
  consolidatedFrom: 'consolidated-from',
  countMemories: 'count-memories',
  memoriesToEmbed: 'memories-to-embed',
  pendingEmbeddings: 'pending-embeddings',
  attachEmbeddings: 'attach-embeddings',
  failEmbeddings: 'fail-embeddings',
  stalledEmbeddings: 'stalled-embeddings',
  clearLinkPending: 'clear-link-pending',
});
