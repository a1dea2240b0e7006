import { describe, expect, it } from 'vitest';
import {
  Coalescer,
  commonLabels,
  contentWords,
  keywords,
  peopleQuery,
  phrase,
  rareOnly,
  thematicQuery,
} from '../../src/contexts/synapse/testing.js';

describe('keywords', () => {
  it('keeps content words of 3+ letters, most frequent first, then longer first, without stop words', () => {
    expect(keywords('The cat and the other cat sat on a mat; the MAT was red.')).toEqual([
      'cat',
      'mat',
      'other',
      'sat',
      'red',
    ]);
    expect(keywords('a fox met an elephant near the lighthouse')).toEqual([
      'lighthouse',
      'elephant',
      'near',
      'fox',
      'met',
    ]);
  });

  it('bounds the number of terms', () => {
    const text = Array.from({ length: 500 }, (_, i) => `word${i}`).join(' ');
    expect(keywords(text)).toHaveLength(16);
  });

  it('reduces words to letters and digits, so query syntax cannot get in', () => {
    expect(keywords('title:(x) OR "quoted" AND ~fuzzy* \\slash')).toEqual(['quoted', 'title', 'fuzzy', 'slash']);
  });

  it("keeps a name with an apostrophe whole and drops possessives, as the index's analyzer does", () => {
    const words = keywords("Mr. O'Brien called: O’Brien's lease ends, don't wait. 'Quoted' words");
    expect(words[0]).toBe("o'brien"); // twice, once with a typographic apostrophe and a possessive
    expect([...words].sort()).toEqual(['called', 'don', 'ends', 'lease', "o'brien", 'quoted', 'wait', 'words']);
    expect(thematicQuery('kabc', "O'Brien's lease", [])).toBe("+storeKey:kabc^0 +(content:(o'brien o’brien lease))");
  });
});

describe('Lucene queries', () => {
  it('quotes phrases, escaping quotes and backslashes', () => {
    expect(phrase('Ana "the" \\ Silva')).toBe('"Ana \\"the\\" \\\\ Silva"');
  });

  it('scopes to the store key with boost 0 and weighs tags double', () => {
    expect(thematicQuery('kabc', 'Lisbon harbour walk', ['travel', 'Lisbon trip'])).toBe(
      '+storeKey:kabc^0 +(content:(harbour lisbon walk) tags:("travel" "Lisbon trip")^2)',
    );
    expect(peopleQuery('kabc', ['Ana', ' ', 'Ben'])).toBe('+storeKey:kabc^0 +(people:("Ana" "Ben"))');
  });

  it('has no query when nothing is left to search for', () => {
    expect(thematicQuery('kabc', 'the and of', [])).toBeNull();
    expect(peopleQuery('kabc', [])).toBeNull();
  });
});

describe('common labels', () => {
  it('are those in at least 5% of a full sample, case-folded, counted once per memory', () => {
    const sample = Array.from({ length: 100 }, (_, i) =>
      i < 5 ? ['Work', 'work'] : i < 9 ? ['Azores'] : [`misc${i}`],
    );
    const common = commonLabels(sample);
    expect([...common]).toEqual(['work']);
    expect(rareOnly(['WORK', 'Azores', 'sailing'], common)).toEqual(['Azores', 'sailing']);
  });

  it('include content words common in the sample, which thematic queries leave out', () => {
    const sample = Array.from({ length: 100 }, (_, i) =>
      contentWords(i < 6 ? `Ana and I walked, ana laughed (${i})` : `Notes on thing ${i}`),
    );
    const common = commonLabels(sample);
    expect(common.has('ana')).toBe(true);
    expect(common.has('walked')).toBe(true);
    expect(common.has('notes')).toBe(true);
    expect(thematicQuery('kabc', 'Ana walked to the Lisbon harbour', [], common)).toBe(
      '+storeKey:kabc^0 +(content:(harbour lisbon))',
    );
    expect(thematicQuery('kabc', 'Ana walked', [], common)).toBeNull();
  });

  it('are none in a small store', () => {
    expect(commonLabels(Array.from({ length: 10 }, () => ['work'])).size).toBe(0);
  });
});

describe('Coalescer', () => {
  it('puts items pushed in one tick into one batch, and later ones into the next', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const c = new Coalescer<number>(async (_key, items) => {
      batches.push(items);
      if (batches.length === 1) await gate;
    }, 100);
    const first = [1, 2, 3].map((i) => c.push('s', i));
    await new Promise((r) => setImmediate(r));
    const later = [4, 5].map((i) => c.push('s', i)); // while batch 1 runs
    release();
    await Promise.all([...first, ...later]);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    await c.idle('s');
  });

  it('splits at maxBatch, keeps keys apart and rejects the items of a failed batch', async () => {
    const seen: string[] = [];
    const c = new Coalescer<number>(async (key, items) => {
      seen.push(`${key}:${items.join(',')}`);
      if (key === 'bad') throw new Error('boom');
    }, 2);
    await Promise.all([1, 2, 3].map((i) => c.push('a', i)));
    await expect(c.push('bad', 9)).rejects.toThrow('boom');
    expect(seen).toEqual(['a:1,2', 'a:3', 'bad:9']);
  });
});
