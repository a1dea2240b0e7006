/**
 * Confidence calibration: a logistic model over evidence that means the same
 * in every store (docs/recall.md, "Confidence"). One model for queries with a
 * vector and one for lexical-only queries (the model missing or off; its
 * similarity weight is 0). Fitted by `npm run bench:calibration -- --fit` on
 * development LoCoMo sub-stores of 1 to 2,760 memories and the development
 * everyday scenarios; the reliability tables are in bench/results/calibration.md.
 * Each store-size band and each source weighs the same in the fit, and the
 * exact, person, date and association weights are held non-negative (the
 * fit put exact, person and association at 0: their information is already
 * in coverage and similarity). Committed: round 2 of the full fit of
 * 2026-12-01 (docs/recall.md).
 */
export interface Calibration {
  readonly bias: number;
  /** Per 0.1 of cosine similarity above 0.8 (negative below). */
  readonly similarity: number;
  /** Share of the question's content words the memory holds. */
  readonly coverage: number;
  /** Share of the question's numbers and names the memory holds. */
  readonly exact: number;
  /** The question names numbers or names and the memory holds none. */
  readonly exactMiss: number;
  /** The memory involves a person the question names. */
  readonly person: number;
  /** The memory happened on a day or in a month the question names. */
  readonly date: number;
  /** Association: what reached the memory from a seed, times that seed's own confidence. */
  readonly association: number;
}

export const FUSED_CALIBRATION: Calibration = {
  bias: -2.559,
  similarity: 2.344,
  coverage: 2.1,
  exact: 0,
  exactMiss: -1.078,
  person: 0,
  date: 0.701,
  association: 0,
};

export const LEXICAL_CALIBRATION: Calibration = {
  bias: -1.956,
  similarity: 0,
  coverage: 2.694,
  exact: 0,
  exactMiss: -1.144,
  person: 0,
  date: 0.369,
  association: 0,
};
