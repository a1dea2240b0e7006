import { describe, expect, it } from 'vitest';
import { nextUsefulness } from '../../src/contexts/salience/testing.js';
import { Spread } from '../../src/contexts/synapse/testing.js';

describe('usefulness', () => {
  it('rises on success, falls on failure or non-use, and stays within (-1, 1)', () => {
    expect(nextUsefulness(0, 'SUCCEEDED')).toBeCloseTo(0.3);
    expect(nextUsefulness(0, 'PARTIAL')).toBeCloseTo(0.1);
    expect(nextUsefulness(0, 'FAILED')).toBeCloseTo(-0.3);
    expect(nextUsefulness(0, 'NOT_USED')).toBeCloseTo(-0.1);
    let u = 0;
    for (let i = 0; i < 100; i++) u = nextUsefulness(u, 'SUCCEEDED');
    expect(u).toBeLessThan(1.0000001);
    expect(u).toBeGreaterThan(0.99);
    for (let i = 0; i < 100; i++) u = nextUsefulness(u, 'FAILED');
    expect(u).toBeGreaterThan(-1.0000001);
    expect(u).toBeLessThan(-0.99);
  });
});

describe('seed support in spreading activation', () => {
  const options = { maxHops: 2, maxNodes: 100, hopDecay: 0.5, maxFrontier: 50, minShare: 0 };

  it('lets seeds that are linked support each other, and only them', () => {
    const spread = new Spread(
      [
        { id: 'a', weight: 1 },
        { id: 'b', weight: 0.5 },
        { id: 'c', weight: 0.5 },
      ],
      options,
    );
    spread.step([
      { from: 'a', to: 'b', type: 'TEMPORAL', strength: 1, fan: 1 },
      { from: 'b', to: 'a', type: 'TEMPORAL', strength: 1, fan: 1 },
      { from: 'a', to: 'x', type: 'TEMPORAL', strength: 1, fan: 1 },
    ]);
    const result = new Map(spread.result().map((r) => [r.id, r]));
    expect(result.get('b')?.activation).toBeGreaterThan(0);
    expect(result.get('a')?.activation).toBeGreaterThan(0);
    expect(result.get('b')!.activation).toBeGreaterThan(result.get('a')!.activation); // a passes on more than b
    expect(result.has('c')).toBe(false);
    expect(result.get('x')?.path).toEqual(['TEMPORAL']);
  });
});
