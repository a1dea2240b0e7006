/** Model runs cut where text lengths spread, so that padding and the runs themselves cost least. */
import { describe, expect, it } from 'vitest';
import { countRuns, lengthRuns, RUN_OVERHEAD_TOKENS } from '../../src/adapters/embeddings/testing.js';

/** What the cut costs in tokens: each run padded to its longest, plus its overhead. */
const costOf = (lengths: number[], runs: Array<[number, number]>) =>
  runs.reduce((sum, [from, to]) => sum + RUN_OVERHEAD_TOKENS + (to - from) * (lengths[to - 1] as number), 0);
const covered = (runs: Array<[number, number]>) =>
  runs.flatMap(([from, to]) => Array.from({ length: to - from }, (_, k) => from + k));

describe('lengthRuns', () => {
  it('keeps texts of about the same length in one run, up to the most a run may hold', () => {
    expect(lengthRuns([20, 20, 21, 21, 22], 16)).toEqual([[0, 5]]);
    expect(lengthRuns([20, 20, 21, 21, 22], 2)).toEqual([
      [0, 2],
      [2, 4],
      [4, 5],
    ]);
  });

  it('cuts where the lengths jump, and not for a step smaller than a run costs', () => {
    // 40 padded to 110 would waste 70 tokens, far more than a run: two runs.
    expect(lengthRuns([40, 41, 42, 110, 112], 16)).toEqual([
      [0, 3],
      [3, 5],
    ]);
    // 40 padded to 44 wastes 4 tokens, less than a run's overhead: one run.
    expect(lengthRuns([40, 44], 16)).toEqual([[0, 2]]);
  });

  it('covers every text once, in order, at a cost no higher than runs cut by count alone', () => {
    const lengths = Array.from({ length: 64 }, (_, i) => 30 + Math.round((i * i) / 40)).sort((a, b) => a - b);
    const runs = lengthRuns(lengths, 16);
    expect(covered(runs)).toEqual(lengths.map((_, i) => i));
    expect(runs.every(([from, to]) => to - from <= 16)).toBe(true);
    expect(costOf(lengths, runs)).toBeLessThan(0.9 * costOf(lengths, countRuns(64, 16)));
  });

  it('finds the cheapest cut: no cut into two runs at any point is cheaper than what it gives', () => {
    const lengths = [10, 12, 30, 31, 33, 60, 61, 90];
    const best = costOf(lengths, lengthRuns(lengths, 16));
    for (let a = 1; a < lengths.length; a++)
      expect(best).toBeLessThanOrEqual(
        costOf(lengths, [
          [0, a],
          [a, lengths.length],
        ]),
      );
    expect(best).toBeLessThanOrEqual(costOf(lengths, [[0, lengths.length]]));
  });

  it('gives nothing for no texts and one run for one text', () => {
    expect(lengthRuns([], 16)).toEqual([]);
    expect(lengthRuns([512], 16)).toEqual([[0, 1]]);
  });
});

describe('countRuns (runs cut by count alone, as benchmarks compare)', () => {
  it('cuts runs of the most a run may hold, the last one shorter', () => {
    expect(countRuns(5, 2)).toEqual([
      [0, 2],
      [2, 4],
      [4, 5],
    ]);
    expect(countRuns(0, 16)).toEqual([]);
  });
});
