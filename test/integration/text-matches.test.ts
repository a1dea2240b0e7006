/**
 * A search's full-text matches on the real Neo4j (src/contexts/recall/candidate-reads.ts): a store holding most
 * of the index is searched without its key first, and gets what the keyed query gives it — the same memories,
 * none of another store's — and the keyed query runs when the other stores' matches leave it too few. Here every
 * share counts as "most" (threshold 0), so both ways are tried whatever else the test database holds.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { CandidateReads, DEFAULT_WEIGHTS, planSearch, StoreTermStats } from '../../src/contexts/recall/testing.js';
import type { GraphPort } from '../../src/domain/index.js';

const large = randomStore('text-large');
const small = randomStore('text-small');
const other = randomStore('text-other');
// A word no other test writes, so the index's matches of it are this test's only.
const word = `zq${randomUUID().replace(/-/g, '').slice(0, 10)}`;
const STORE_MANY = 'mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }';
let t: TestApp;

const fill = (store: string, n: number, content: (i: number) => string) =>
  t.ok(STORE_MANY, { inputs: Array.from({ length: n }, (_, i) => ({ store, content: content(i) })) });

/** The graph, keeping the Lucene query of every full-text read. */
function watching(graph: GraphPort): { graph: GraphPort; queries: string[] } {
  const queries: string[] = [];
  const watched: GraphPort = {
    ...graph,
    read: (async (statement, params) => {
      const query = (params as { query?: unknown }).query;
      if (typeof query === 'string' && query.includes(word)) queries.push(query);
      return graph.read(statement, params);
    }) as GraphPort['read'],
  };
  return { graph: watched, queries };
}

const plan = (store: string) =>
  planSearch(
    {
      query: `notes about ${word}`,
      store,
      limit: 10,
      includeAssociations: false,
      minConfidence: null,
      filters: { tiers: null, from: null, to: null, tags: null, people: null, sessionId: null },
    },
    new StoreTermStats(),
    DEFAULT_WEIGHTS,
    Date.now(),
  );

beforeAll(async () => {
  t = await startTestApp();
  // The other store's matches score higher (the word twice in a short memory): unkeyed, they come first.
  await fill(other, 40, () => `${word} ${word}`);
  await fill(large, 60, (i) => `note ${i} of the long list, where ${word} comes up once among many other words`);
  await fill(small, 5, (i) => `a short aside ${i} on ${word} and the weather we had`);
});

afterAll(async () => {
  for (const store of [large, small, other]) await t.dropStore(store);
  await t.stop();
});

describe("a search's full-text matches", () => {
  it("searched without the store's key, are the keyed query's when enough of them are the store's", async () => {
    const unkeyed = watching(t.app.recallDeps.graph);
    const keyed = watching(t.app.recallDeps.graph);
    const first = await new CandidateReads(unkeyed.graph, Date.now, 0).textMatches(plan(large));
    const expected = await new CandidateReads(keyed.graph, Date.now, Number.POSITIVE_INFINITY).textMatches(plan(large));
    expect(unkeyed.queries).toHaveLength(1);
    expect(unkeyed.queries[0]).not.toContain('storeKey');
    expect(keyed.queries[0]).toContain('storeKey');
    // As many as the search reads (60 for 10 hits), so no cut falls between memories of equal score.
    expect(expected).toHaveLength(plan(large).limit);
    expect(first.map((m) => m.id).sort()).toEqual(expected.map((m) => m.id).sort());
    expect(new Set(first.map((m) => m.store))).toEqual(new Set([large]));
  });

  it('fall back to the keyed query when the other stores leave the store too few', async () => {
    const watched = watching(t.app.recallDeps.graph);
    const found = await new CandidateReads(watched.graph, Date.now, 0).textMatches(plan(small));
    expect(watched.queries).toHaveLength(2);
    expect(watched.queries[1]).toContain('storeKey');
    expect(found).toHaveLength(5);
    expect(new Set(found.map((m) => m.store))).toEqual(new Set([small]));
  });
});
