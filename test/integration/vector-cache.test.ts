/**
 * The in-process copy of a small store's vectors (src/contexts/recall/vector-cache.ts) on the real Neo4j: a store
 * that grows past the limit while its copy is kept current loses the copy (the vector index serves it then),
 * instead of the copy growing with the store. Vectors are the client's own, so no model is needed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { DEFAULT_VECTOR_CACHE, VectorCache } from '../../src/contexts/recall/testing.js';

const store = randomStore('vector-cache');
let t: TestApp;
const STORE_MANY = 'mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }';

/** A unit vector pointing mostly along one axis. */
const vector = (axis: number) => Array.from({ length: 384 }, (_, i) => (i === axis ? 1 : 0.01));
const storeSome = (from: number, n: number) =>
  t.ok(STORE_MANY, {
    inputs: Array.from({ length: n }, (_, i) => ({ store, content: `note ${from + i}`, embedding: vector(from + i) })),
  });

beforeAll(async () => {
  t = await startTestApp();
  await storeSome(0, 3);
});

afterAll(async () => {
  await t.dropStore(store);
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
});
