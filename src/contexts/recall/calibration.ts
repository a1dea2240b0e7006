/**
 * Confidence calibration: a logistic model over evidence that means the same
 * in every store (docs/recall.md, "Confidence"). One model for queries with a
 * vector and one for lexical-only queries (the model missing or off; its
 * similarity weight is 0). Fitted by `npm run bench:calibration -- --fit` on
 * development LoCoMo sub-stores of 1 to 2,760 memories (asked their own
 * questions and, one in four, questions they were not built to answer) and
 * the development everyday scenarios; the reliability tables are in
 * bench/results/calibration.md. Each store-size band and each source weighs
 * the same in the fit, and the exact, person, date and association weights
 * are held non-negative. Committed: round 3 of the full fit of 2026-12-04.
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
  /** The question wants a time or a number and the memory holds none. */
  readonly kindMiss: number;
  /** Association: what reached the memory from a seed, times that seed's own confidence. */
  readonly association: number;
}

export const FUSED_CALIBRATION: Calibration = {
  bias: -2.663,
  similarity: 2.418,
  coverage: 2.154,
  exact: 0,
  exactMiss: -0.864,
  person: 0,
  date: 0.757,
  kindMiss: -0.786,
  association: 0,
};

export const LEXICAL_CALIBRATION: Calibration = {
  bias: -2.075,
  similarity: 0,
  coverage: 2.964,
  exact: 0,
  exactMiss: -0.671,
  person: 0,
  date: 0.143,
  kindMiss: -1.186,
  association: 0,
};
