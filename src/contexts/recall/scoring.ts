/**
 * Ranking and confidence: pure functions, documented in docs/recall.md.
 *
 *   score = relevance + wA·activation + wS·salience + wU·usefulness + tierBias
 *
 * relevance is the BM25 score relative to the query's best direct match
 * (so it is in [0,1]); activation is what spreading activation over
 * associations delivered (in [0,1]); salience is the score decayed to now;
 * usefulness in [-1,1] comes from reported outcomes. Confidence is a separate,
 * calibrated probability that the hit is what was asked for: a logistic model
 * over absolute features, fitted on LoCoMo (npm run bench:locomo -- --calibrate).
 */
import type { AssociationType, MemoryRecord, Tier } from '../../domain/index.js';
import { CALIBRATION, type Calibration } from './calibration.js';

export interface Candidate {
  readonly memory: MemoryRecord;
  /** Raw BM25 score; 0 when the memory was reached by association only. */
  readonly textScore: number;
  /** Share of the query's stems present in the memory. */
  readonly coverage: number;
  readonly activation: number;
  readonly path: readonly AssociationType[];
  readonly salience: number;
  readonly usefulness: number;
}

export interface RankedHit extends Candidate {
  readonly relevance: number;
  readonly score: number;
  readonly confidence: number;
}

export interface RecallWeights {
  readonly activation: number;
  readonly salience: number;
  readonly usefulness: number;
  readonly tierBias: Readonly<Record<Tier, number>>;
  /** ARCHIVE memories are recalled only with this much relevance… */
  readonly archiveMinRelevance: number;
  /** …or this much association signal. */
  readonly archiveMinActivation: number;
  /** How many of the best direct matches seed spreading activation. */
  readonly seeds: number;
  /** The association types activation follows (docs/recall.md says why). */
  readonly activationTypes: readonly AssociationType[];
}

export const DEFAULT_WEIGHTS: RecallWeights = {
  activation: 2.4,
  salience: 0.1,
  usefulness: 0.15,
  tierBias: { IDENTITY_CORE: 0.1, ACTIVE_CONTEXT: 0.05, LONG_TERM: 0, ARCHIVE: -0.05 },
  archiveMinRelevance: 0.5,
  archiveMinActivation: 0.3,
  seeds: 10,
  activationTypes: ['TEMPORAL', 'CAUSAL'],
};

/** Signals switched off for ablation measurements (all on in service). */
export interface Signals {
  readonly activation: boolean;
  readonly salience: boolean;
  readonly usefulness: boolean;
}

export const ALL_SIGNALS: Signals = { activation: true, salience: true, usefulness: true };

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

export function confidenceOf(relevance: number, coverage: number, activation: number, textScore: number, c: Calibration = CALIBRATION): number {
  const z = c.bias + c.relevance * relevance + c.coverage * coverage + c.activation * activation + c.textScore * Math.log1p(textScore);
  return sigmoid(z);
}

/** Tier planning: archive only with enough relevance or association signal. */
export function admitted(tier: Tier, relevance: number, activation: number, w: RecallWeights): boolean {
  return tier !== 'ARCHIVE' || relevance >= w.archiveMinRelevance || activation >= w.archiveMinActivation;
}

/** Never raw database order: by score, then confidence, then newer, then id. */
export function compareHits(a: RankedHit, b: RankedHit): number {
  return b.score - a.score || b.confidence - a.confidence || b.memory.occurredAt - a.memory.occurredAt || (a.memory.id < b.memory.id ? -1 : a.memory.id > b.memory.id ? 1 : 0);
}

export function rank(
  candidates: readonly Candidate[],
  w: RecallWeights = DEFAULT_WEIGHTS,
  signals: Signals = ALL_SIGNALS,
  calibration: Calibration = CALIBRATION,
): RankedHit[] {
  const best = Math.max(0, ...candidates.map((c) => c.textScore));
  const hits: RankedHit[] = [];
  for (const c of candidates) {
    const relevance = best > 0 ? c.textScore / best : 0;
    const activation = signals.activation ? c.activation : 0;
    if (relevance === 0 && activation === 0) continue;
    if (!admitted(c.memory.tier, relevance, activation, w)) continue;
    const score =
      relevance +
      w.activation * activation +
      (signals.salience ? w.salience * c.salience : 0) +
      (signals.usefulness ? w.usefulness * c.usefulness : 0) +
      w.tierBias[c.memory.tier];
    const confidence = confidenceOf(relevance, c.coverage, activation, c.textScore, calibration);
    hits.push({ ...c, activation, relevance, score, confidence });
  }
  return hits.sort(compareHits);
}
