import { declareStatements } from '../../domain/index.js';

export const Q = declareStatements('cold-storage', {
  exportNodes: 'export-nodes',
  exportRelationships: 'export-relationships',
  countNodes: 'count-nodes',
  importRefIndex: 'import-ref-index',
  importAwaitIndex: 'import-await-index',
  importNodes: 'import-nodes',
  importRelationships: 'import-relationships',
  importFinish: 'import-finish',
  importDropIndex: 'import-drop-index',
});
