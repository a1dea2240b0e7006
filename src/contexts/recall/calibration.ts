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
  bias: -6.2111,
  relevance: 1.7713,
  coverage: 1.953,
  activation: 3.6268,
  textScore: 0.7111,
  similarity: 0
};

export const FUSED_CALIBRATION: Calibration = {
  bias: -6.1155,
  relevance: 1.7473,
  coverage: 1.1797,
  activation: 2.5633,
  textScore: 0.2427,
  similarity: 4.6915
};
