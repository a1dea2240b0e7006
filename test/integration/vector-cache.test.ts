/**
 * The in-process copy of a small store's vectors (src/contexts/recall/vector-cache.ts) on the real Neo4j: a store
 * that grows past the limit while its copy is kept current loses the copy (the vector index serves it then),
 * instead of the copy growing with the store; after an import of more memories than a page, a catch-up still
 * reaches what came after it, and reads only vectors it lacks. Vectors are the client's own, so no model is needed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { DEFAULT_VECTOR_CACHE, VectorCache } from '../../src/contexts/recall/testing.js';
import type { GraphPort } from '../../src/domain/index.js';

const store = randomStore('vector-cache');
let t: TestApp;
const STORE_MANY = 'mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }';

/** A unit vector pointing mostly along one axis. */
const vector = (axis: number) => Array.from({ length: 384 }, (_, i) => (i === axis ? 1 : 0.01));
const storeSome = (from: number, n: number, into = store) =>
  t.ok(STORE_MANY, {
    inputs: Array.from({ length: n }, (_, i) => ({
      store: into,
      content: `note ${from + i}`,
      embedding: vector((from + i) % 384),
    })),
  });
const imported = randomStore('vector-cache-import');
const grown = randomStore('vector-cache-grown');

/** The graph, counting the vectors read through it. */
function countingVectors(graph: GraphPort): { graph: GraphPort; read: () => number } {
  let vectorsRead = 0;
  const counting: GraphPort = {
    ...graph,
    read: (async (statement, params) => {
      const rows = await graph.read(statement, params);
      vectorsRead += rows.filter((r) => Array.isArray((r as { embedding?: unknown }).embedding)).length;
      return rows;
    }) as GraphPort['read'],
  };
  return { graph: counting, read: () => vectorsRead };
}

beforeAll(async () => {
  t = await startTestApp();
  await storeSome(0, 3);
});

afterAll(async () => {
  await t.dropStore(store);
  await t.dropStore(imported);
  await t.dropStore(grown);
  await t.stop();
});

describe("the in-process copy of a store's vectors", () => {
  it('is dropped, not kept current, once the store grows past the limit', async () => {
    const lines: string[] = [];
    const cache = new VectorCache(
      t.app.recallDeps.graph,
      Date.now,
      { ...DEFAULT_VECTOR_CACHE, dimensions: 384, maxVectors: 4 },
      (l) => lines.push(l),
    );
    const copy = await cache.get(store, 3);
    expect(copy?.size).toBe(3);
    await storeSome(3, 1);
    await cache.changed(store);
    expect(cache.peek(store)?.size).toBe(4); // at the limit: still kept current
    await storeSome(4, 2);
    await cache.changed(store);
    expect(cache.peek(store)).toBeNull(); // past it: the vector index serves the store from now on
    expect(await cache.get(store, 6)).toBeNull();
    expect(lines).toEqual([]);
  });

  it('after an import larger than a page, catches up with what came next, reading only new vectors', async () => {
    // 2,400 memories attached at one instant, as one import's batches are: more than a catch-up page (2,000).
    for (let from = 0; from < 2400; from += 800) await storeSome(from, 800, imported);
    await t.cypher('MATCH (m:Memory {store: $store}) SET m.embeddedAt = datetime({epochMillis: toInteger($at)})', {
      store: imported,
      at: Date.now() - 1000,
    });
    const counting = countingVectors(t.app.recallDeps.graph);
    const cache = new VectorCache(counting.graph, Date.now, { ...DEFAULT_VECTOR_CACHE, dimensions: 384 });
    expect((await cache.get(imported, 2400))?.size).toBe(2400);
    expect(counting.read()).toBe(2400);

    await cache.changed(imported); // nothing new: ids and times only
    expect(counting.read()).toBe(2400);
    await storeSome(5000, 1, imported);
    await cache.changed(imported);
    expect(cache.peek(imported)?.size).toBe(2401);
    expect(counting.read()).toBe(2401);
  }, 60_000);

  it('is not loaded again on every search of a store that grew past the limit elsewhere', async () => {
    await storeSome(0, 6, grown);
    const counting = countingVectors(t.app.recallDeps.graph);
    let now = Date.now();
    const cache = new VectorCache(counting.graph, () => now, {
      ...DEFAULT_VECTOR_CACHE,
      dimensions: 384,
      maxVectors: 4,
    });
    // The caller still counts 3 memories (its statistics were loaded before another process stored the rest).
    expect(await cache.get(grown, 3)).toBeNull(); // loaded, found past the limit: the index serves the store
    expect(counting.read()).toBe(6);
    for (let i = 0; i < 5; i++) expect(await cache.get(grown, 3)).toBeNull();
    expect(counting.read()).toBe(6); // not read again
    now += DEFAULT_VECTOR_CACHE.maxAgeMs; // until the copy's usual reload time, when it is tried again
    expect(await cache.get(grown, 3)).toBeNull();
    expect(counting.read()).toBe(12);
    cache.reload(grown); // told the store changed (Recall.reload, after an import): tried at the next search
    expect(await cache.get(grown, 3)).toBeNull();
    expect(counting.read()).toBe(18);
  });
});
