/**
 * A store's term statistics on the real Neo4j: the first search waits for them (for the first page only, when the
 * store holds more), a reload every so often runs behind the searches (they keep what they have until it is
 * complete), and a forget drops them at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { Neo4jGraph } from '../../src/adapters/neo4j/index.js';
import { StatsCache } from '../../src/contexts/recall/testing.js';
import type { GraphPort, MemoryRecord } from '../../src/domain/index.js';

const STORE_MANY = `mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }`;

let t: TestApp;
const store = randomStore('stats-cache');
const paged = randomStore('stats-cache-paged');

beforeAll(async () => {
  t = await startTestApp();
});

afterAll(async () => {
  await t.dropStore(store);
  await t.dropStore(paged);
  await t.stop();
});

/** Resolves with whether `work` settled within `ms`. */
const settlesWithin = (work: Promise<unknown>, ms: number) =>
  Promise.race([work.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

describe('StatsCache', () => {
  it('loads on the first search, reloads behind later ones, and drops a forgotten store at once', async () => {
    const storeNotes = async (...contents: string[]) => {
      await t.ok(STORE_MANY, { inputs: contents.map((content) => ({ store, content })) });
    };
    await storeNotes('Ana waters the ferns on Sundays.', 'The ferns need shade.', 'Lunch was soup.');
    // Reads of the store's texts wait while `held` is set, as a large store's would.
    const real = new Neo4jGraph(t.app.driver, t.config.neo4j.database);
    let held: Promise<void> | null = null;
    let release = () => {};
    const graph: GraphPort = {
      read: async (s, p) => {
        if (held) await held;
        return real.read(s, p);
      },
      write: (s, p) => real.write(s, p),
      readTransaction: (w) => real.readTransaction(w),
      transaction: (w) => real.transaction(w),
    };
    const hold = () => (held = new Promise<void>((r) => (release = () => ((held = null), r()))));
    let now = 0;
    const cache = new StatsCache(graph, () => now, 4, 1_000);

    const first = await cache.get(store);
    expect(first.documents).toBe(3);
    expect(first.documentFrequency('fern')).toBe(2);

    // Two memories written where this cache does not see them (another process); the entry grows old.
    await storeNotes('The ferns moved to the porch.', 'Ana repotted a fern.');
    now += 1_000;
    hold();
    // The search after it is old does not wait for the reload: it gets the statistics it had.
    const stale = cache.get(store);
    expect(await settlesWithin(stale, 200)).toBe(true);
    expect((await stale).documents).toBe(3);
    // A memory stored meanwhile counts in what searches use now and in the reload under way.
    const announced = { id: 'mem-announced', store, content: 'A fern for the kitchen.', tags: [], people: [] };
    await cache.stored(announced as unknown as MemoryRecord);
    expect((await cache.get(store)).documents).toBe(4);
    release();
    let reloaded = await cache.get(store);
    for (let i = 0; i < 250 && reloaded.documents < 6; i++) {
      await new Promise((r) => setTimeout(r, 20));
      reloaded = await cache.get(store);
    }
    expect(reloaded.documents).toBe(6);
    expect(reloaded.documentFrequency('fern')).toBe(5);

    // A forget drops the statistics now: the next search waits for them to load afresh.
    cache.invalidate(store);
    hold();
    const afresh = cache.get(store);
    expect(await settlesWithin(afresh, 200)).toBe(false);
    release();
    expect((await afresh).documents).toBe(5);
  });

  it('searches a store of several pages with its first page scaled to its size until all are counted', async () => {
    const notes = [
      'Ana waters the ferns on Sundays.',
      'The ferns need shade.',
      'Lunch was soup.',
      'Soup again, with bread.',
      'A fern for the kitchen window.',
    ];
    await t.ok(STORE_MANY, { inputs: notes.map((content) => ({ store: paged, content })) });
    const real = new Neo4jGraph(t.app.driver, t.config.neo4j.database);
    // Every page of texts after the first waits until released, as a large store's pages take their time.
    let release = () => {};
    const later = new Promise<void>((r) => (release = r));
    let pagesRead = 0;
    const graph: GraphPort = {
      read: async (s, p) => {
        const texts = s.file.endsWith('store-texts.cypher');
        if (texts && p?.after !== '') await later;
        if (texts) pagesRead++;
        return real.read(s, p);
      },
      write: (s, p) => real.write(s, p),
      readTransaction: (w) => real.readTransaction(w),
      transaction: (w) => real.transaction(w),
    };
    const cache = new StatsCache(graph, () => 0, 4, 60_000, 2);

    const early = cache.get(paged);
    expect(await settlesWithin(early, 2_000)).toBe(true);
    const first = await early;
    expect(pagesRead).toBe(1);
    // The first two memories in id order were read: their counts, scaled by 5 / 2.
    const { records } = await t.app.driver.executeQuery(
      'MATCH (m:Memory {store: $store}) RETURN m.content AS content ORDER BY m.id LIMIT 2',
      { store: paged },
      { database: t.config.neo4j.database },
    );
    const ferns = records.filter((r) => /fern/i.test(r.get('content') as string)).length;
    expect(first.documents).toBe(5);
    expect(first.documentFrequency('fern')).toBeCloseTo((ferns * 5) / 2);

    release();
    let full = await cache.get(paged);
    for (let i = 0; i < 250 && full.documentFrequency('fern') !== 3; i++) {
      await new Promise((r) => setTimeout(r, 20));
      full = await cache.get(paged);
    }
    expect(pagesRead).toBe(3);
    expect(full.documents).toBe(5);
    expect(full.documentFrequency('fern')).toBe(3);
    expect(full.documentFrequency('soup')).toBe(2);
  });

  it('waits for the whole store when its size cannot be read, instead of failing the search', async () => {
    const real = new Neo4jGraph(t.app.driver, t.config.neo4j.database);
    const graph: GraphPort = {
      read: async (s, p) => {
        if (s.file.endsWith('store-size.cypher')) throw new Error('the count failed');
        return real.read(s, p);
      },
      write: (s, p) => real.write(s, p),
      readTransaction: (w) => real.readTransaction(w),
      transaction: (w) => real.transaction(w),
    };
    const cache = new StatsCache(graph, () => 0, 4, 60_000, 2);
    const stats = await cache.get(paged); // the five memories of the test above, in pages of two
    expect(stats.documents).toBe(5);
    expect(stats.documentFrequency('fern')).toBe(3);
  });
});
