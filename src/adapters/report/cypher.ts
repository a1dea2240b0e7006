import { loadStatements } from '../neo4j/index.js';

export const Q = loadStatements('report', {
  tierWeeks: 'tier-weeks',
  memoryScores: 'memory-scores',
  associationDegrees: 'association-degrees',
  faded: 'faded',
});
