/** The decay-sweep job keeps its moment with the job, so a retry resumes the same sweep (sweep.ts resumes by `now`). */
import { describe, expect, it } from 'vitest';
import { Bus } from '../../src/domain/index.js';
import { Subconscious, type DecaySweepData, type SubconsciousDeps } from '../../src/contexts/subconscious/index.js';

describe('the decay-sweep job', () => {
  it('sweeps at the moment its first attempt chose, on every retry', async () => {
    let clock = 1_000;
    let failing = true;
    const asked: number[] = [];
    const bus = new Bus();
    bus.handle('salience', 'SweepDecay', async (m) => {
      asked.push(m.data.now);
      if (failing) throw new Error('Neo4j went away mid-sweep');
      return {} as never;
    });
    const deps = { bus, settings: { scopeStores: null }, clock: () => clock } as unknown as SubconsciousDeps;
    const subconscious = new Subconscious(deps);
    // What the queue keeps for the job between its attempts.
    let kept: DecaySweepData = {};
    const attempt = (n: number) =>
      subconscious.run({
        kind: 'decay-sweep',
        id: 'repeat:decay-sweep:1000',
        data: kept,
        attempt: n,
        dueAt: 1_000,
        keepData: async (data) => {
          kept = data;
        },
      });
    await expect(attempt(1)).rejects.toThrow(/mid-sweep/);
    clock = 61_000;
    failing = false;
    await attempt(2);
    expect(asked).toEqual([1_000, 1_000]);
  });
});
