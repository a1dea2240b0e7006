/**
 * Confidence calibration coefficients (logistic models; see scoring.ts), one
 * for queries with a vector (fused) and one for lexical-only queries. Fitted
 * on the LoCoMo conversations by `npm run bench:locomo -- --calibrate`, which
 * rewrites the two constants below; the reliability tables it reports are in
 * bench/results/locomo.md.
 */
export interface Calibration {
  readonly bias: number;
  /** Weight of the lexical match (BM25 relative to the best). */
  readonly relevance: number;
  readonly coverage: number;
  readonly activation: number;
  /** Weight of log(1 + BM25). */
  readonly textScore: number;
  /** Weight of the similarity above the floor, scaled to [0,1] (0 in the lexical model). */
  readonly similarity: number;
}

export const LEXICAL_CALIBRATION: Calibration = {
  bias: -5.7678,
  relevance: 1.744,
  coverage: 2.0003,
  activation: 1.3772,
  textScore: 0.5763,
  similarity: 0
};

export const FUSED_CALIBRATION: Calibration = {
  bias: -3.8754,
  relevance: 1.5038,
  coverage: 1.8959,
  activation: 0.9258,
  textScore: 0.4273,
  similarity: -1.4295
};
