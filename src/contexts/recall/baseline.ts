/**
 * A memory's baseline: how close its vector stands to any question, as the
 * mean of its cosines to the reference questions (reference-questions.ts).
 * For unit vectors that mean is the dot product with the questions' mean
 * vector, so one more cosine per memory gives it: its cosine to the mean's
 * direction times the mean's length. Recall counts a memory's similarity
 * above its own baseline (scoring.ts, directFeatures).
 */
export interface Reference {
  /** The direction of the reference questions' mean vector (unit length). */
  readonly unit: Float32Array;
  /** The length of that mean (below 1: the questions point in different directions). */
  readonly norm: number;
}

/** Where a memory's baseline is not known (no reference yet): the anchor the calibration had before baselines. */
export const BASELINE_FALLBACK = 0.8;

/** The reference from the questions' unit vectors; null without any. */
export function referenceOf(vectors: readonly Float32Array[]): Reference | null {
  const first = vectors[0];
  if (!first) return null;
  const mean = new Float32Array(first.length);
  for (const v of vectors) for (let i = 0; i < mean.length; i++) mean[i]! += (v[i] ?? 0) / vectors.length;
  let norm = 0;
  for (const x of mean) norm += x * x;
  norm = Math.sqrt(norm);
  if (!(norm > 0)) return null;
  const unit = mean.map((x) => x / norm);
  return { unit, norm };
}

/** A memory's baseline from its cosine to the reference's direction; null when either is unknown. */
export function baselineOf(cosineToReference: number | null, reference: Reference | null): number | null {
  return cosineToReference === null || reference === null ? null : cosineToReference * reference.norm;
}
