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
  /** Weight of the memory involving a person the query names (0 or 1). */
  readonly person: number;
}

export const LEXICAL_CALIBRATION: Calibration = {
  bias: -7.6365,
  relevance: 1.9719,
  coverage: 1.7733,
  activation: 5.0647,
  textScore: 0.5426,
  similarity: 0,
  person: 1.9521
};

export const FUSED_CALIBRATION: Calibration = {
  bias: -7.3768,
  relevance: 1.8214,
  coverage: 1.3582,
  activation: 3.5354,
  textScore: 0.2856,
  similarity: 3.4811,
  person: 1.9354
};
