import { loadStatements } from '../neo4j/index.js';

export const Q = loadStatements('report', {
  tierWeeks: 'tier-weeks',
  salienceBins: 'salience-bins',
  associationDegrees: 'association-degrees',
  faded: 'faded',
});
