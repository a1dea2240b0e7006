import { declareStatements } from '../../domain/index.js';

export const Q = declareStatements('salience', {
  sweepBatch: 'sweep-batch',
  sweepBatchInStore: 'sweep-batch-in-store',
  sweepBounds: 'sweep-bounds',
  sweepBoundsInStore: 'sweep-bounds-in-store',
  readScoringInputs: 'read-scoring-inputs',
  readSessionWorkingMemory: 'read-session-working-memory',
  writeScores: 'write-scores',
  writeAnchors: 'write-anchors',
  recordMarkedUse: 'record-marked-use',
  applyOutcome: 'apply-outcome',
  readSweepCursor: 'read-sweep-cursor',
  writeSweepCursor: 'write-sweep-cursor',
});
