import { describe, expect, it } from 'vitest';
import {
  BASELINE_FALLBACK,
  REFERENCE_QUESTIONS,
  baselineOf,
  directFeatures,
  referenceOf,
} from '../../src/contexts/recall/testing.js';

const unit = (xs: number[]) => {
  const n = Math.hypot(...xs);
  return Float32Array.from(xs.map((x) => x / n));
};
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);
const evidence = { coverage: 0, exact: 0, exactMiss: 0, kindMiss: 0, personMatch: 0, dateMatch: 0, breadth: 0 };

describe("a memory's baseline", () => {
  it('is its mean cosine to the reference questions, from one cosine to their mean direction', () => {
    const questions = [unit([1, 0, 0]), unit([0, 1, 0]), unit([1, 1, 1])];
    const reference = referenceOf(questions)!;
    expect(Math.hypot(...reference.unit)).toBeCloseTo(1, 6);
    for (const memory of [unit([1, 2, 3]), unit([-1, 0.5, 2]), unit([0, 0, 1])]) {
      const mean = questions.reduce((s, q) => s + dot(memory, q), 0) / questions.length;
      expect(baselineOf(dot(memory, reference.unit), reference)).toBeCloseTo(mean, 5);
    }
  });

  it('has no reference without questions, or when they cancel out', () => {
    expect(referenceOf([])).toBeNull();
    expect(referenceOf([unit([1, 0]), unit([-1, 0])])).toBeNull();
    const reference = referenceOf([unit([1, 0])]);
    expect(baselineOf(null, reference)).toBeNull();
    expect(baselineOf(0.5, null)).toBeNull();
    expect(Array.from(reference!.unit)).toEqual([1, 0]);
  });

  it('is what similarity counts above, and 0.8 stands in where it is not known', () => {
    const [withBaseline] = directFeatures({ ...evidence, similarity: 0.84, baseline: 0.79 });
    expect(withBaseline).toBeCloseTo(0.5, 6);
    const [unknown] = directFeatures({ ...evidence, similarity: 0.84, baseline: null });
    expect(unknown).toBeCloseTo((0.84 - BASELINE_FALLBACK) * 10, 6);
    expect(directFeatures({ ...evidence, similarity: 0.84 })[0]).toBeCloseTo(unknown!, 6);
  });

  it('comes from a fixed list of distinct questions', () => {
    expect(REFERENCE_QUESTIONS.length).toBe(160);
    expect(new Set(REFERENCE_QUESTIONS).size).toBe(REFERENCE_QUESTIONS.length);
    for (const q of REFERENCE_QUESTIONS) expect(q).toMatch(/\?$/);
  });
});
