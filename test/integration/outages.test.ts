/**
 * Outages on the real Neo4j and Redis, seen through a TCP proxy the test cuts
 * (test/fault-proxy.ts): the shared servers keep running, only this app loses
 * them. While a server is gone, calls that need it fail fast with a typed,
 * retryable UNAVAILABLE (never a hang, never "internal error"), health says
 * what is degraded, and once it is back the same app works again.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { dropQueues, eventually, queuePrefix } from '../background.js';
import { startFaultProxy, type FaultProxy } from '../fault-proxy.js';
import { loadConfig } from '../../src/config.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean().catch(() => undefined);
});

const base = loadConfig();
const portOf = (uri: string) => Number(new URL(uri.replace(/^bolt:/, 'http:')).port);
/** The same Redis URL (password included) on another port. */
function viaPort(url: string, port: number): string {
  const moved = new URL(url);
  moved.port = String(port);
  return moved.href;
}

const STORE = `mutation ($m: StoreInput!) { store(input: $m) { id content } }`;
const SEARCH = `query ($q: SearchInput!) { search(input: $q) { hits { memory { id } } } }`;
const HEALTH = `{ health { neo4j redis degraded } }`;
const QUEUES = `{ health { queues { name } } }`;

/** A raw POST, to see the HTTP status and headers too. */
async function post(t: TestApp, query: string, variables: Record<string, unknown> = {}) {
  const started = Date.now();
  const res = await fetch(t.server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as {
    data?: any;
    errors?: { message: string; extensions?: Record<string, unknown> }[];
  };
  return { ms: Date.now() - started, status: res.status, retryAfter: res.headers.get('retry-after'), body };
}

async function appBehind(
  proxy: FaultProxy,
  which: 'neo4j' | 'redis',
  store: string,
  extra: Record<string, string> = {},
): Promise<TestApp> {
  const prefix = queuePrefix();
  const env = {
    ...process.env,
    TOTAL_RECALL_QUEUE_PREFIX: prefix,
    TOTAL_RECALL_SCOPE_STORES: store,
    // Through the proxy, with the credentials the project's config found for the real server.
    ...(which === 'neo4j'
      ? {
          NEO4J_URI: `bolt://127.0.0.1:${proxy.port}`,
          NEO4J_USER: base.neo4j.user,
          NEO4J_PASSWORD: base.neo4j.password,
        }
      : { REDIS_URL: viaPort(base.redisUrl, proxy.port) }),
    ...extra,
  };
  const t = await startTestApp({ workers: which === 'redis', log: () => undefined }, env);
  cleanups.push(async () => {
    await proxy.restore();
    await t.dropStore(store);
    await t.stop();
    await dropQueues(prefix);
    await proxy.close();
  });
  return t;
}

describe('Neo4j down', () => {
  it('fails fast with a typed, retryable UNAVAILABLE, says so in health, and works again once it is back', async () => {
    const store = randomStore('outage-neo4j');
    const proxy = await startFaultProxy(portOf(base.neo4j.uri));
    const t = await appBehind(proxy, 'neo4j', store);
    const first = await post(t, STORE, { m: { id: `${store}-1`, store, content: 'Before the outage.' } });
    expect(first.body.errors).toBeUndefined();

    await proxy.cut();
    for (const call of [
      () => post(t, STORE, { m: { id: `${store}-2`, store, content: 'During the outage.' } }),
      () => post(t, SEARCH, { q: { query: 'outage', store } }),
      () => post(t, STORE, { m: { id: `${store}-2`, store, content: 'During the outage.' } }),
    ]) {
      const res = await call();
      const error = res.body.errors?.[0];
      expect(error?.extensions).toMatchObject({
        code: 'UNAVAILABLE',
        retryAfterMs: 1000,
        details: { service: 'neo4j' },
      });
      expect(error?.message).toMatch(/neo4j is unavailable/);
      expect(res.retryAfter).toBe('1');
      // Never the driver's 30 s of retries (the figure itself is the chaos benchmark's).
      expect(res.ms).toBeLessThan(10_000);
    }
    const health = await post(t, HEALTH);
    expect(health.body.data.health).toMatchObject({ neo4j: false, redis: true });
    expect(health.body.data.health.degraded).toEqual([expect.stringMatching(/^neo4j: unreachable/)]);

    // Back: the same app reconnects by itself, and the client's retry with the same id stores it once.
    await proxy.restore();
    const retried = await eventually(
      async () => {
        const res = await post(t, STORE, { m: { id: `${store}-2`, store, content: 'During the outage.' } });
        return res.body.errors ? undefined : res;
      },
      30_000,
      200,
    );
    expect(retried.body.data.store).toEqual({ id: `${store}-2`, content: 'During the outage.' });
    expect((await post(t, HEALTH)).body.data.health).toEqual({ neo4j: true, redis: true, degraded: [] });
    const rows = await t.cypher<{ n: number }>('MATCH (m:Memory {store: $store}) RETURN count(m) AS n', { store });
    expect(rows[0]?.n).toBe(2);
  });
});

describe('Redis down', () => {
  it('keeps storing, fails what needs Redis fast and typed, and the acknowledged store is ' +
    'embedded once it is back', async () => {
    const store = randomStore('outage-redis');
    const proxy = await startFaultProxy(Number(new URL(base.redisUrl).port));
    const t = await appBehind(proxy, 'redis', store, {
      TOTAL_RECALL_EMBEDDINGS: 'on',
      TOTAL_RECALL_RECONCILE_MS: '1000',
      TOTAL_RECALL_RECONCILE_GRACE_MS: '1',
    });
    await eventually(async () => (t.app.embedder.status().state === 'ready' ? true : undefined), 60_000, 200);
    expect((await post(t, QUEUES)).body.errors).toBeUndefined();

    await proxy.cut();
    const stored = await post(t, STORE, { m: { id: `${store}-1`, store, content: 'Stored while Redis was away.' } });
    expect(stored.body.errors).toBeUndefined();
    expect(stored.body.data.store.id).toBe(`${store}-1`);
    const queues = await post(t, QUEUES);
    expect(queues.body.errors?.[0]?.extensions).toMatchObject({
      code: 'UNAVAILABLE',
      retryAfterMs: 1000,
      details: { service: 'redis' },
    });
    expect(queues.ms).toBeLessThan(10_000);
    const health = await post(t, HEALTH);
    expect(health.body.data.health).toMatchObject({ neo4j: true, redis: false });
    expect(health.body.data.health.degraded).toEqual([expect.stringMatching(/^redis: unreachable/)]);
    const pending = await t.cypher<{ status: string }>(
      'MATCH (m:Memory {id: $id}) RETURN m.embeddingStatus AS status',
      { id: `${store}-1` },
    );
    expect(pending[0]?.status).toBe('PENDING');

    // Back: the memory acknowledged during the outage gets its embedding, and Redis answers again.
    await proxy.restore();
    await eventually(
      async () => {
        const rows = await t.cypher<{ status: string }>(
          'MATCH (m:Memory {id: $id}) RETURN m.embeddingStatus AS status',
          { id: `${store}-1` },
        );
        return rows[0]?.status === 'DONE' ? true : undefined;
      },
      60_000,
      250,
    );
    await eventually(async () => ((await post(t, QUEUES)).body.errors ? undefined : true), 30_000, 200);
    expect((await post(t, HEALTH)).body.data.health).toEqual({ neo4j: true, redis: true, degraded: [] });
  }, 120_000);
});
