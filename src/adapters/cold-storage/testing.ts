/** The export format's parts, for tests only (production code may not import this file). */
export * from './format.js';
export * from './values.js';
export { ChainError, chainOf, resolveChain } from './chain.js';
export { GroupedRecords, compareGroups, groupOf } from './live-check.js';
export { ReadSince } from './read-graph.js';
