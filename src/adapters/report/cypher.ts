import { declareStatements } from '../../domain/index.js';

export const Q = declareStatements('report', {
  tierWeeks: 'tier-weeks',
  memoryScores: 'memory-scores',
  associationDegrees: 'association-degrees',
  faded: 'faded',
});
