import { describe, expect, it } from 'vitest';
import { sortableId } from '../../src/domain/ids.js';

describe('sortableId', () => {
  it('has the prefix, 11 chars of time, 4 of counter and 8 random hex chars', () => {
    expect(sortableId('evt', Date.UTC(2030, 0, 1))).toMatch(/^evt_[0-9a-z]{11}[0-9a-z]{4}[0-9a-f]{8}$/);
  });

  it('sorts by creation time, and in creation order within one millisecond', () => {
    const t0 = Date.UTC(2030, 0, 1);
    const made = [t0, t0, t0, t0 + 1, t0 + 1, t0 + 1000, t0 + 86_400_000].map((at) => sortableId('evt', at));
    expect([...made].sort()).toEqual(made);
  });

  it('never repeats, across many more ids than one pool of random bytes serves', () => {
    const at = Date.UTC(2030, 0, 2);
    const ids = Array.from({ length: 5000 }, () => sortableId('msg', at));
    expect(new Set(ids).size).toBe(ids.length);
    // The random tails differ too, not only the counter.
    expect(new Set(ids.map((id) => id.slice(-8))).size).toBeGreaterThan(4990);
  });
});
