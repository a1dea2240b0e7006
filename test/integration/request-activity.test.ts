/**
 * The server marks each request while it runs (RequestActivity), which the
 * model threads read to yield: busy from the moment a request arrives until
 * QUIET_MS after the last one ended, over real HTTP on the real Neo4j; and
 * background work waiting for a gap between requests gets it as one ends.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp } from '../helpers.js';
import { buildGraphQLSchema, startGraphQLServer } from '../../src/adapters/graphql/index.js';
import { QUIET_MS } from '../../src/adapters/request-activity.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean().catch(() => undefined);
});

describe('request activity', () => {
  it('is busy while a request runs and for the quiet time after, then idle', async () => {
    const store = randomStore('activity');
    // A long gap wait, so that waiting for the gap below never ends by the bound instead.
    const t = await startTestApp(
      { log: () => undefined },
      { ...process.env, TOTAL_RECALL_BACKGROUND_GAP_WAIT_MS: '30000' },
    );
    const server = await startGraphQLServer(await buildGraphQLSchema(), t.app.ports, '127.0.0.1', 0, {
      activity: t.app.activity,
    });
    cleanups.push(async () => {
      await server.stop();
      await t.dropStore(store);
      await t.stop();
    });
    await new Promise((r) => setTimeout(r, QUIET_MS + 50));
    expect(t.app.activity.busy()).toBe(false);
    const inputs = Array.from({ length: 500 }, (_, i) => ({
      store,
      content: `Memory ${i}: the ferry left at dawn and the gulls followed it.`,
    }));
    let sawBusy = false;
    const request = fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }',
        variables: { inputs },
      }),
    }).then(async (res) => ((await res.json()) as { data?: { storeMany: unknown[] } }).data?.storeMany.length);
    let answered = false;
    void request.then(() => (answered = true));
    while (!answered) {
      sawBusy ||= t.app.activity.busy();
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(await request).toBe(500);
    expect(sawBusy).toBe(true);
    expect(t.app.activity.busy()).toBe(true); // within the quiet time after it
    await new Promise((r) => setTimeout(r, QUIET_MS + 50));
    expect(t.app.activity.busy()).toBe(false);

    // Background work waiting for a gap while a request runs starts just after the answer, not before it.
    const request2 = fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }',
        variables: { inputs: inputs.map((i) => ({ ...i, content: `${i.content} Again.` })) },
      }),
    });
    while (!t.app.activity.busy()) await new Promise((r) => setTimeout(r, 1));
    let answeredAt = Number.POSITIVE_INFINITY;
    void request2.then(() => (answeredAt = performance.now()));
    await t.app.activity.untilGap();
    const gapAt = performance.now();
    expect((await request2).status).toBe(200);
    expect(t.app.activity.busy()).toBe(true);
    // The gap came once the request had ended on the server (its answer reaches the client a moment later).
    expect(gapAt).toBeLessThanOrEqual(answeredAt + 5);
    expect(answeredAt - gapAt).toBeLessThan(1_000);
  });
});
