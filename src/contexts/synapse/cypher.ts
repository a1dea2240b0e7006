import { declareStatements } from '../../domain/index.js';

export const Q = declareStatements('synapse', {
  recentLabels: 'recent-labels',
  findLinkCandidates: 'find-link-candidates',
  mergeMechanicalLinks: 'merge-mechanical-links',
  memoryAssociations: 'memory-associations',
  setStrengths: 'set-strengths',
  getMemoryStores: 'get-memory-stores',
  getAssociation: 'get-association',
  putSemanticAssociation: 'put-semantic-association',
  expandNeighbourhood: 'expand-neighbourhood',
  expandActivation: 'expand-activation',
  unlinkedMemories: 'unlinked-memories',
});
