import { declareStatements } from '../../domain/index.js';

export const Q = declareStatements('recall', {
  searchCandidates: 'search-candidates',
  filterMemories: 'filter-memories',
  recordRecall: 'record-recall',
  getRecall: 'get-recall',
  recordUse: 'record-use',
  getUse: 'get-use',
  reportOutcome: 'report-outcome',
  reflectStale: 'reflect-stale',
  reflectRecent: 'reflect-recent',
  reflectWeak: 'reflect-weak',
  reflectTies: 'reflect-ties',
  storeTexts: 'store-texts',
  storeSize: 'store-size',
  storeVectors: 'store-vectors',
  embeddedSince: 'embedded-since',
  vectorsOf: 'vectors-of',
  vectorCandidates: 'vector-candidates',
  similarities: 'similarities',
  datedMemories: 'dated-memories',
  memoriesInAll: 'memories-in-all',
});
