/** Mean pooling over the attention mask and L2 normalisation (sentence-transformers' Pooling + Normalize). */
import { describe, expect, it } from 'vitest';
import { cosine, l2Normalize, meanPool } from '../../src/adapters/embeddings/testing.js';

describe('meanPool', () => {
  it('averages only the tokens the mask keeps, per sequence', () => {
    // batch 2, seq 3, dim 2
    const hidden = new Float32Array([1, 2, 3, 4, 100, 100, /* second */ 5, 5, 7, 9, 9, 1]);
    const mask = new BigInt64Array([1n, 1n, 0n, 1n, 1n, 1n]);
    const [a, b] = meanPool(hidden, mask, 2, 3, 2);
    expect(Array.from(a as Float32Array)).toEqual([2, 3]); // the padded (100, 100) is ignored
    expect(Array.from(b as Float32Array)).toEqual([7, 5]);
  });

  it('pools an all-masked sequence to zeros instead of dividing by zero', () => {
    const [v] = meanPool(new Float32Array([3, 4]), [0], 1, 1, 2);
    expect(Array.from(v as Float32Array)).toEqual([0, 0]);
  });

  it('refuses shapes that do not fit', () => {
    expect(() => meanPool(new Float32Array(5), [1, 1], 1, 2, 3)).toThrow(/expected 1×2×3/);
    expect(() => meanPool(new Float32Array(6), [1], 1, 2, 3)).toThrow(/mask/);
  });
});

describe('l2Normalize', () => {
  it('scales to unit length and keeps the direction', () => {
    const v = l2Normalize(new Float32Array([3, 4]));
    expect(v[0]).toBeCloseTo(0.6, 6);
    expect(v[1]).toBeCloseTo(0.8, 6);
  });

  it('leaves a zero vector at zero', () => {
    expect(Array.from(l2Normalize(new Float32Array([0, 0, 0])))).toEqual([0, 0, 0]);
  });
});

describe('cosine', () => {
  it('is 1 for the same direction, 0 for orthogonal, -1 for opposite', () => {
    expect(cosine([1, 2], [2, 4])).toBeCloseTo(1, 12);
    expect(cosine([1, 0], [0, 3])).toBe(0);
    expect(cosine([1, 1], [-1, -1])).toBeCloseTo(-1, 12);
    expect(() => cosine([1], [1, 2])).toThrow();
  });
});
