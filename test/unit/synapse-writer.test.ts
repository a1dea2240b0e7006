import { describe, expect, it } from 'vitest';
import { LinkWriter, RecentPool } from '../../src/contexts/synapse/testing.js';
import type { PlannedLink } from '../../src/contexts/synapse/testing.js';

const link = (lo: string, hi: string, type: PlannedLink['type'] = 'PERSON'): PlannedLink => ({
  lo,
  hi,
  type,
  strength: 0.5,
});

describe('RecentPool', () => {
  it('finds the newest members sharing a person or an emotion, case-folded, never the memory itself', () => {
    const pool = new RecentPool(3);
    pool.add([
      { id: 'c', people: ['Ana'], emotions: [] },
      { id: 'b', people: [], emotions: ['Joy'] },
      { id: 'a', people: ['ana '], emotions: [] },
    ]);
    expect(pool.sharing('x', ['ANA'], ['joy'], 10)).toEqual(['c', 'b', 'a']);
    expect(pool.sharing('c', ['Ana'], [], 10)).toEqual(['a']);
    expect(pool.sharing('x', ['Ana'], ['joy'], 2)).toEqual(['c', 'b']);
    expect(pool.sharing('x', ['Bo'], ['anger'], 10)).toEqual([]);
  });

  it('keeps the newest `capacity` members; a member added again moves to the front', () => {
    const pool = new RecentPool(2);
    pool.add([{ id: 'a', people: ['Ana'], emotions: [] }]);
    pool.add([{ id: 'b', people: ['Ana'], emotions: [] }]);
    pool.add([{ id: 'a', people: ['Ana'], emotions: [] }]);
    expect(pool.sharing('x', ['Ana'], [], 10)).toEqual(['a', 'b']);
    pool.add([{ id: 'c', people: ['Ana'], emotions: [] }]);
    expect(pool.sharing('x', ['Ana'], [], 10)).toEqual(['c', 'a']);
  });
});

describe('LinkWriter', () => {
  it('writes only once linking may go on (a gap between requests), with what was queued meanwhile', async () => {
    const writes: PlannedLink[][] = [];
    let openGap = () => {};
    const writer = new LinkWriter(
      async (links) => (writes.push(links), []),
      0,
      () => new Promise<void>((resolve) => (openGap = resolve)),
    );
    const first = writer.add('s', [link('a', 'b')]);
    await new Promise((r) => setTimeout(r, 10));
    expect(writes).toEqual([]);
    const second = writer.add('s', [link('a', 'c')]);
    openGap();
    await Promise.all([first, second]);
    expect(writes.map((w) => w.map((l) => l.hi))).toEqual([['b', 'c']]);
  });

  it(
    'writes the links queued within the interval in one call, and reports to each caller ' + 'what its links created',
    async () => {
      const writes: PlannedLink[][] = [];
      const writer = new LinkWriter(async (links) => {
        writes.push(links);
        // 'b–c' existed already: the write creates only the others.
        return links
          .filter((l) => l.hi !== 'c')
          .map((l) => ({ a: l.lo, b: l.hi, type: l.type, origin: 'MECHANICAL' as const, strength: l.strength }));
      }, 20);
      const first = writer.add('s', [link('a', 'b')]);
      const second = writer.add('s', [link('b', 'c'), link('a', 'd')]);
      expect(writer.pending('s')).toHaveLength(3);
      const [one, two] = await Promise.all([first, second]);
      expect(writes).toHaveLength(1);
      expect(writes[0]).toHaveLength(3);
      expect(one.map((l) => `${l.a}-${l.b}`)).toEqual(['a-b']);
      expect(two.map((l) => `${l.a}-${l.b}`)).toEqual(['a-d']);
      expect(writer.pending('s')).toEqual([]);
    },
  );

  it('keeps stores apart, counts links being written as pending, and resolves idle once all are written', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const seen: string[] = [];
    let bothStarted!: () => void;
    const started = new Promise<void>((r) => (bothStarted = r));
    const writer = new LinkWriter(async (links) => {
      seen.push(links.map((l) => `${l.lo}-${l.hi}`).join(','));
      if (seen.length === 2) bothStarted();
      await gate;
      return [];
    }, 0);
    void writer.add('s', [link('a', 'b')]);
    void writer.add('t', [link('x', 'y')]);
    await started; // one write per store, both under way
    expect(seen.sort()).toEqual(['a-b', 'x-y']);
    expect(writer.pending('s')).toEqual([link('a', 'b')]); // being written
    let idle = false;
    const done = writer.idle('s').then(() => (idle = true));
    // Whatever is ready to run runs (a macrotask later), and idle still waits for the gate.
    await new Promise((r) => setImmediate(r));
    expect(idle).toBe(false);
    release();
    await done;
    expect(idle).toBe(true);
    expect(writer.pending('s')).toEqual([]);
  });

  it('rejects the callers of a failed write and goes on with later ones', async () => {
    let fail = true;
    const writer = new LinkWriter(async (links) => {
      if (fail) throw new Error('write failed');
      return links.map((l) => ({
        a: l.lo,
        b: l.hi,
        type: l.type,
        origin: 'MECHANICAL' as const,
        strength: l.strength,
      }));
    }, 0);
    await expect(writer.add('s', [link('a', 'b')])).rejects.toThrow('write failed');
    fail = false;
    expect(await writer.add('s', [link('a', 'c')])).toHaveLength(1);
    expect(await writer.add('s', [])).toEqual([]);
  });
});
