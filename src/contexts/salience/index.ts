/**
 * Salience: scores that fade with time and rise with use (docs/salience.md).
 * The maths are pure functions; the actor keeps the scores and asks
 * Hippocampus for tier changes.
 */
export { Salience } from './salience.js';
export type { SalienceDeps } from './salience.js';
export type { SweepReport } from './sweep.js';
export { DEFAULT_SALIENCE, SALIENCE_SETTINGS, salienceConfigProblems, salienceConfigFromEnv } from './config.js';
export type { SalienceConfig, TierThresholds, DecayingTier } from './config.js';
export {
  currentSalience,
  fold,
  scoreAt,
  halfLife,
  decayed,
  boosted,
  entryLevel,
  startAnchor,
  toLevel,
  toScore,
  usesOf,
} from './model.js';
export type { ScoringInput, Folded } from './model.js';
export { decideTier } from './tier-decision.js';
export type { TierDecision, TierSituation } from './tier-decision.js';
export { planBatch } from './plan.js';
export type { BatchPlan, PlanOptions, ScoreWrite, AnchorWrite, TierRequest } from './plan.js';
export type { ScoringRow } from './rows.js';
export { nextUsefulness, USEFULNESS_STEPS } from './usefulness.js';
