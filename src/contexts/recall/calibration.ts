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
  bias: -7.538,
  relevance: 1.9234,
  coverage: 1.8006,
  activation: 5.0861,
  textScore: 0.527,
  similarity: 0,
  person: 1.907
};

export const FUSED_CALIBRATION: Calibration = {
  bias: -7.2695,
  relevance: 1.844,
  coverage: 1.3886,
  activation: 3.5432,
  textScore: 0.2489,
  similarity: 3.6287,
  person: 1.8262
};
