/**
 * Confidence calibration: a logistic model over evidence that means the same
 * in every store (docs/recall.md, "Confidence"). One model for queries with a
 * vector and one for lexical-only queries (the model missing or off; its
 * similarity weight is 0). Fitted by `npm run bench:calibration -- --fit` on
 * development LoCoMo sub-stores of 1 to 2,760 memories and the development
 * everyday scenarios; the reliability tables are in bench/results/calibration.md.
 * The committed values are round 2 of a --quick fit (docs/recall.md); the
 * fused model's association weight came out at −0.07 and is set to 0.
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
  bias: -3.982,
  similarity: 2.069,
  coverage: 2.069,
  exact: 0.149,
  exactMiss: -0.79,
  person: 0.454,
  date: 1.051,
  association: 0
};

export const LEXICAL_CALIBRATION: Calibration = {
  bias: -4.383,
  similarity: 0,
  coverage: 2.992,
  exact: 0.487,
  exactMiss: -0.561,
  person: 0.388,
  date: 1.008,
  association: 0.09
};
