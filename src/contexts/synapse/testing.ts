/** Synapse's maths and linking parts, for tests only (production code may not import this file). */
export { strengthen, weaken, validateStrength, MAX_STRENGTH, MIN_STRENGTH } from './strength.js';
export { planLinks, ruleScores, thematicScore, temporalScore, jaccard } from './linking.js';
export type { LinkRules, LinkSubject, Candidate, PlannedLink, Degrees } from './linking.js';
export { Spread, TYPE_WEIGHTS } from './activation.js';
export type { ActivationOptions, SpreadEdge } from './activation.js';
export { Levels } from './neighbourhood.js';
export { keywords, contentWords, thematicQuery, peopleQuery, phrase, commonLabels, rareOnly } from './text-queries.js';
export { Coalescer } from './coalescer.js';
export { LinkWriter } from './link-writer.js';
export { RecentPool } from './recent-pool.js';
