import { declareStatements } from '../../domain/index.js';

/** Read-only: the Subconscious decides from the graph; the owners write. */
export const Q = declareStatements('subconscious', {
  sessionTimer: 'session-timer',
  openSessions: 'open-sessions',
  sessionAuditMemories: 'session-audit-memories',
  unauditedSessions: 'unaudited-sessions',
  consolidationCandidates: 'consolidation-candidates',
  storeLastActivity: 'store-last-activity',
});
