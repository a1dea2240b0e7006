import { declareStatements } from '../../domain/index.js';

export const Q = declareStatements('cold-storage', {
  exportNodes: 'export-nodes',
  exportRelationships: 'export-relationships',
  deltaDeleted: 'delta-deleted',
  deltaNodes: 'delta-nodes',
  deltaRelationships: 'delta-relationships',
  now: 'now',
  countNodes: 'count-nodes',
  countMemories: 'count-memories',
  readHead: 'read-head',
  writeHead: 'write-head',
  clearHead: 'clear-head',
  importRefIndex: 'import-ref-index',
  importAwaitIndex: 'import-await-index',
  importNodes: 'import-nodes',
  importUpsertNodes: 'import-upsert-nodes',
  importDeleteNodes: 'import-delete-nodes',
  importRelationships: 'import-relationships',
  importFinish: 'import-finish',
  importAbort: 'import-abort',
  importMarks: 'import-marks',
});
