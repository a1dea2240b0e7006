/**
 * Admission control over real HTTP on the real Neo4j: a process admitting one
 * operation at a time with one waiting refuses a burst beyond that with a
 * typed BUSY (HTTP 503, Retry-After, extensions.retryAfterMs), the refused
 * calls write nothing, the admitted ones complete, and health still answers.
 * With tokens, one token holds at most its share of the slots and half the
 * queue, so another token's call still gets in while the first floods.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, TestTokens } from '../helpers.js';
import { buildGraphQLSchema, startGraphQLServer } from '../../src/adapters/graphql/index.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean().catch(() => undefined);
});

const STORE_MANY = `mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }`;

describe('admission control', () => {
  it(
    'refuses work beyond its slots and queue with BUSY and a retry hint, and the refused ' + 'calls change nothing',
    async () => {
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
        const res = await fetch(server.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query, variables }),
        });
        return {
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
          body: (await res.json()) as { data?: any; errors?: any[] },
        };
      };

      // Twelve batches at once: one runs, one waits, the others are refused.
      const batches = Array.from({ length: 12 }, (_, b) =>
        Array.from({ length: 200 }, (_, i) => ({
          id: `${store}-${b}-${i}`,
          store,
          content: `Batch ${b}, memory ${i}: the tide came in over the causeway.`,
        })),
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
        expect(r.body.errors?.[0]?.extensions).toMatchObject({
          code: 'BUSY',
          details: { maxConcurrent: 1, maxQueued: 1 },
        });
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
    },
  );

  it(
    'keeps one token to its share: its flood waits behind itself or is refused, while ' + 'another token is admitted',
    async () => {
      const store = randomStore('admission-share');
      const other = randomStore('admission-share-other');
      const t = await startTestApp(
        { log: () => undefined },
        { ...process.env, TOTAL_RECALL_AUTH: 'on', TOTAL_RECALL_SCOPE_STORES: `${store},${other}` },
      );
      const tokens = new TestTokens(() => t);
      const hog = await tokens.issue({ scope: 'mind', stores: [store] });
      const bystander = await tokens.issue({ scope: 'mind', stores: [other] });
      const server = await startGraphQLServer(await buildGraphQLSchema(), t.app.ports, '127.0.0.1', 0, {
        ...(await t.app.serverOptions()),
        rateLimit: null,
        admission: { maxConcurrent: 2, maxQueued: 4, maxWaitMs: 30_000, maxPerCaller: 1 },
      });
      cleanups.push(async () => {
        await server.stop();
        await tokens.removeAll();
        await t.dropStore(store);
        await t.dropStore(other);
        await t.stop();
      });
      const post = async (token: string, query: string, variables: Record<string, unknown> = {}) => {
        const res = await fetch(server.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query, variables }),
        });
        return (await res.json()) as { data?: any; errors?: any[] };
      };

      // Six batches from one token: one runs, two wait (half the queue), three are refused.
      const batches = Array.from({ length: 6 }, (_, b) =>
        Array.from({ length: 300 }, (_, i) => ({
          id: `${store}-${b}-${i}`,
          content: `Batch ${b}, memory ${i}: gulls over the harbour wall.`,
        })),
      );
      const flood = batches.map((inputs) => post(hog.token, STORE_MANY, { inputs }));
      await new Promise((resolve) => setTimeout(resolve, 20));
      // Without the share the flood would fill both slots and the whole queue, and this call would be refused.
      const own = await post(bystander.token, STORE_MANY, {
        inputs: [{ content: 'The bystander keeps its own notes.' }],
      });
      expect(own.errors).toBeUndefined();
      expect(own.data.storeMany).toHaveLength(1);

      const results = await Promise.all(flood);
      const refused = results.filter((r) => r.errors);
      const admitted = results.length - refused.length;
      // Three when all six arrive while the first runs; on a busy machine the first may finish before the last
      // arrives and free its place. Without the share the two slots and the queue of four would take all six.
      expect(admitted).toBeGreaterThanOrEqual(3);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      for (const r of refused) {
        expect(r.errors?.[0]?.extensions).toMatchObject({
          code: 'BUSY',
          details: { reason: 'this caller already fills its share of the queue' },
        });
      }
      const rows = await t.cypher<{ n: number }>('MATCH (m:Memory {store: $store}) RETURN count(m) AS n', { store });
      expect(rows[0]?.n).toBe(admitted * 300);
      // The flood was held at the entry (one request of the token in the process at once), so no slot refused it.
      expect(server.admission?.stats()).toMatchObject({ running: 0, waiting: 0, refused: 0 });
    },
  );

  it('gives a place back when its client hangs up while waiting behind its own token', async () => {
    const store = randomStore('admission-hangup');
    const t = await startTestApp(
      { log: () => undefined },
      { ...process.env, TOTAL_RECALL_AUTH: 'on', TOTAL_RECALL_SCOPE_STORES: store },
    );
    const tokens = new TestTokens(() => t);
    const mind = await tokens.issue({ scope: 'mind', stores: [store] });
    const server = await startGraphQLServer(await buildGraphQLSchema(), t.app.ports, '127.0.0.1', 0, {
      ...(await t.app.serverOptions()),
      rateLimit: null,
      admission: { maxConcurrent: 2, maxQueued: 4, maxWaitMs: 3_000, maxPerCaller: 1 },
    });
    cleanups.push(async () => {
      await server.stop();
      await tokens.removeAll();
      await t.dropStore(store);
      await t.stop();
    });
    const post = (inputs: unknown[], signal?: AbortSignal) =>
      fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${mind.token}` },
        body: JSON.stringify({ query: STORE_MANY, variables: { inputs } }),
        signal,
      });
    const batch = (tag: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({ content: `${tag} ${i}: the ferry waited at the quay.` }));

    const first = post(batch('first', 400)); // holds the token's one place for a while
    await new Promise((resolve) => setTimeout(resolve, 30));
    const hangUp = new AbortController();
    const second = post(batch('second', 1), hangUp.signal).catch((error: unknown) => error); // waits behind the first
    await new Promise((resolve) => setTimeout(resolve, 50));
    hangUp.abort();
    expect(await second).toBeInstanceOf(Error);
    expect((await (await first).json()).data.storeMany).toHaveLength(400);

    // Had the hung-up request kept its place, this one would wait out maxWaitMs and be refused BUSY.
    const third = (await (await post(batch('third', 1))).json()) as { data?: any; errors?: any[] };
    expect(third.errors).toBeUndefined();
    expect(third.data.storeMany).toHaveLength(1);
  });
});
