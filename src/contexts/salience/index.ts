/**
 * Salience: scores that fade with time and rise with use (docs/salience.md).
 * The maths are pure functions; the actor keeps the scores and asks
 * Hippocampus for tier changes.
 */
export { Salience } from './salience.js';
export type { SalienceDeps } from './salience.js';
export type { SweepReport } from './sweep.js';
export { DEFAULT_SALIENCE, SALIENCE_SETTINGS, salienceConfigFromEnv } from './config.js';
export type { SalienceConfig, TierThresholds, DecayingTier } from './config.js';
export { currentSalience } from './model.js';
export type { ScoringInput } from './model.js';
export { planBatch } from './plan.js';
export type { BatchPlan, PlanOptions, ScoreWrite, AnchorWrite, TierRequest } from './plan.js';
export type { ScoringRow } from './rows.js';
