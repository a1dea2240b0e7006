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
 * are held non-negative. Committed: round 2 of the full fit of 2026-12-05, the
 * first with similarity above each memory's own baseline (baseline.ts).
 */
export interface Calibration {
  readonly bias: number;
  /** Per 0.1 of cosine similarity above the memory's baseline (baseline.ts; negative below). */
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
  bias: -4.428,
  similarity: 3.272,
  coverage: 2.222,
  exact: 0,
  exactMiss: -0.739,
  person: 0,
  date: 1.111,
  kindMiss: -0.788,
  association: 0,
};

export const LEXICAL_CALIBRATION: Calibration = {
  bias: -2.076,
  similarity: 0,
  coverage: 2.961,
  exact: 0,
  exactMiss: -0.679,
  person: 0,
  date: 0.14,
  kindMiss: -1.18,
  association: 0,
};
