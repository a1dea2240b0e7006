/**
 * Confidence calibration: a logistic model over evidence that means the same
 * in every store (docs/recall.md, "Confidence"). One model for queries with a
 * vector and one for lexical-only queries (the model missing or off; its
 * similarity weight is 0). Fitted by `npm run bench:calibration -- --fit` on
 * development LoCoMo sub-stores of 1 to 2,760 memories (asked their own
 * questions and, one in four, questions they were not built to answer), the
 * development everyday scenarios and the LongMemEval histories that
 * bench:longmemeval does not ask about; the reliability tables are in
 * bench/results/calibration.md. Each store-size band and each source weighs
 * the same in the fit, and the exact, person, date and association weights
 * are held non-negative. Committed: round 2 of the full fit of 2026-12-05
 * (night), with similarity above each memory's own baseline (baseline.ts),
 * the memory's breadth (evidence.ts), and everyday scenarios that keep
 * longer notes whole (a meeting's notes, a recipe), where the answer is one
 * detail of a paragraph.
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
  /** How much else the memory holds: 0 up to 64 content words, 1 from 128 on (evidence.ts, breadth). */
  readonly breadth: number;
  /** Association: what reached the memory from a seed, times that seed's own confidence. */
  readonly association: number;
}

export const FUSED_CALIBRATION: Calibration = {
  bias: -4.067,
  similarity: 2.844,
  coverage: 2.027,
  exact: 0,
  exactMiss: -0.589,
  person: 0,
  date: 1.004,
  kindMiss: -0.681,
  breadth: -1.697,
  association: 0,
};

export const LEXICAL_CALIBRATION: Calibration = {
  bias: -2.046,
  similarity: 0,
  coverage: 2.792,
  exact: 0,
  exactMiss: -1.248,
  person: 0,
  date: 0.172,
  kindMiss: -0.973,
  breadth: -1.2,
  association: 0,
};
