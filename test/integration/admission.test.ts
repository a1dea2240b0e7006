/**
 * Admission control over real HTTP on the real Neo4j: a process admitting one
 * operation at a time with one waiting refuses a burst beyond that with a
 * typed BUSY (HTTP 503, Retry-After, extensions.retryAfterMs), the refused
 * calls write nothing, the admitted ones complete, and health still answers.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp } from '../helpers.js';
import { buildGraphQLSchema, startGraphQLServer } from '../../src/adapters/graphql/index.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean().catch(() => undefined);
});

const STORE_MANY = `mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }`;

describe('admission control', () => {
  it('refuses work beyond its slots and queue with BUSY and a retry hint, and the refused calls change nothing', async () => {
    const store = randomStore('admission');
    const t = await startTestApp({ log: () => undefined });
    const server = await startGraphQLServer(await buildGraphQLSchema(), t.app.ports, '127.0.0.1', 0, {
      admission: { maxConcurrent: 1, maxQueued: 1, maxWaitMs: 30_000 },
    });
    cleanups.push(async () => {
      await server.stop();
      await t.dropStore(store);
      await t.stop();
    });
    const post = async (query: string, variables: Record<string, unknown> = {}) => {
      const res = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as { data?: any; errors?: any[] } };
    };

    // Twelve batches at once: one runs, one waits, the others are refused.
    const batches = Array.from({ length: 12 }, (_, b) =>
      Array.from({ length: 200 }, (_, i) => ({ id: `${store}-${b}-${i}`, store, content: `Batch ${b}, memory ${i}: the tide came in over the causeway.` })),
    );
    const health = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return post('{ health { neo4j } }');
    })();
    const results = await Promise.all(batches.map((inputs) => post(STORE_MANY, { inputs })));
    const refused = results.flatMap((r, b) => (r.body.errors ? [{ r, b }] : []));
    const admitted = results.flatMap((r, b) => (r.body.errors ? [] : [{ r, b }]));
    expect(admitted.length).toBeGreaterThanOrEqual(2);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const { r } of refused) {
      expect(r.status).toBe(503);
      expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(r.body.errors?.[0]?.extensions).toMatchObject({ code: 'BUSY', details: { maxConcurrent: 1, maxQueued: 1 } });
      expect(r.body.errors?.[0]?.extensions?.retryAfterMs).toBeGreaterThanOrEqual(100);
    }
    for (const { r } of admitted) expect(r.body.data.storeMany).toHaveLength(200);
    // Health is never queued behind the work: it answers (whether Neo4j answered it in time is its own matter).
    const answered = (await health).body;
    expect(answered.errors).toBeUndefined();
    expect(typeof answered.data?.health?.neo4j).toBe('boolean');
    const rows = await t.cypher<{ n: number }>('MATCH (m:Memory {store: $store}) RETURN count(m) AS n', { store });
    expect(rows[0]?.n).toBe(admitted.length * 200);
    expect(server.admission?.stats()).toMatchObject({ running: 0, waiting: 0, refused: refused.length });
  });
});
