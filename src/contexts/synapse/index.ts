/**
 * Synapse: typed, bidirectional associations between memories (docs/synapse.md).
 * The actor, its settings and the linking pipeline a linking thread runs.
 */
export { Synapse } from './synapse.js';
export type { SynapseDeps } from './synapse.js';
export type { SynapseSettings } from './settings.js';
export { LINKING_NICE } from './settings.js';
export { SYNAPSE_SETTINGS, synapseSettingsFromEnv } from './settings.js';
export type { AssociationRecord } from './records.js';
export type { ActivationQuery } from './traversal.js';
export type { AssociationsQuery, NeighbourhoodQuery } from '../../domain/index.js';
export { mechanicalStrength } from './strength.js';
export { LinkPipeline } from './link-pipeline.js';
export type { Linking, OnLinked, StartLinking } from './link-pipeline.js';
export type { LinkSource, CreatedLink } from './mechanical.js';
