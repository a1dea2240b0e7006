/**
 * The server marks each request while it runs (RequestActivity), which the
 * model threads read to yield: busy from the moment a request arrives until
 * QUIET_MS after the last one ended, over real HTTP on the real Neo4j.
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
    const t = await startTestApp({ log: () => undefined });
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
  });
});
