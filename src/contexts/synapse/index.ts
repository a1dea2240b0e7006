/**
 * Synapse: typed, bidirectional associations between memories (docs/synapse.md).
 * The actor, and the pure maths behind it (strengths, rules, activation).
 */
export { Synapse } from './synapse.js';
export type { SynapseDeps } from './synapse.js';
export type { SynapseSettings } from './settings.js';
export { SYNAPSE_SETTINGS, synapseSettingsFromEnv } from './settings.js';
export type { AssociationRecord } from './records.js';
export type { AssociationsQuery, NeighbourhoodQuery, ActivationQuery } from './traversal.js';
export {
  strengthen,
  weaken,
  mechanicalStrength,
  validateStrength,
  MAX_STRENGTH,
  MIN_STRENGTH,
  DEFAULT_SEMANTIC_STRENGTH,
  DEFAULT_STEP,
} from './strength.js';
export { planLinks, ruleScores, thematicScore, temporalScore, jaccard, MECHANICAL_TYPES } from './linking.js';
export type {
  LinkRules,
  LinkSubject,
  Candidate,
  LinkBatchItem,
  PlannedLink,
  MechanicalType,
  Degrees,
} from './linking.js';
export { Spread, TYPE_WEIGHTS } from './activation.js';
export type { Activated, ActivationOptions, Seed, SpreadEdge } from './activation.js';
export { Levels } from './neighbourhood.js';
export {
  keywords,
  contentWords,
  thematicQuery,
  peopleQuery,
  phrase,
  commonLabels,
  rareOnly,
  COMMON_SHARE,
} from './text-queries.js';
export { Coalescer } from './coalescer.js';
export { LinkWriter } from './link-writer.js';
export { RecentPool } from './recent-pool.js';
export type { PoolMember } from './recent-pool.js';
export { LinkPipeline } from './link-pipeline.js';
export type { Linking, OnLinked } from './link-pipeline.js';
export { LinkingThread } from './linking-thread.js';
export type { LinkingThreadInit } from './linking-worker.js';
export type { LinkSource, CreatedLink } from './mechanical.js';
export { LINKING_NICE } from './settings.js';
