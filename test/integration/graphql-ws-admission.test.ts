/**
 * graphql-ws admits each operation as HTTP admits a request (issue: a socket
 * admitted once at connect kept a revoked token's access, bypassed the rate
 * limit and admission, and answered introspection): only subscriptions are
 * served, each operation's token is checked again and counted, a subscription
 * takes an admission slot while it is set up, a revoked token's open
 * subscriptions end within 5 s, and introspection and suggestions follow the
 * HTTP policy. Authentication is on (the security app); fresh tokens are
 * removed afterwards.
 */
import { randomUUID } from 'node:crypto';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { buildGraphQLSchema, startGraphQLServer } from '../../src/adapters/graphql/index.js';
import { A, nodes, STORE, startRateLimitedApp, t, tok, tokens, useSecurityApp } from './security-fixture.js';

useSecurityApp();

interface Answer {
  readonly errors?: { message: string; extensions?: Record<string, unknown> }[];
  readonly data?: unknown;
  /** The socket's close code, when it closed instead of answering. */
  readonly closed?: number;
}

/** A socket that connects at once and stays open between operations. */
function socket(url: string, connectionParams: Record<string, unknown>): Client {
  return createClient({
    url: url.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => undefined,
  });
}

/** Sends one operation; resolves with its first answer, its error, or the socket's close (a live one never does). */
function answer(client: Client, query: string, variables: Record<string, unknown> = {}): Promise<Answer> {
  return new Promise((resolve) => {
    client.subscribe(
      { query, variables },
      {
        next: (r) => resolve(r as Answer),
        error: (e) => resolve(Array.isArray(e) ? { errors: e } : { closed: (e as { code: number }).code }),
        complete: () => resolve({}),
      },
    );
  });
}

const codeOf = (a: Answer) => a.errors?.[0]?.extensions?.code ?? (a.closed ? `closed ${a.closed}` : 'answered');
const within = <T>(ms: number, p: Promise<T>) =>
  Promise.race([p, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms))]);
const NOTIFY = 'subscription ($i: String!) { notifications(instanceId: $i) { id } }';

const freshToken = (instanceId: string) => tokens.issue({ scope: 'mind', stores: [A], instanceId });

describe('graphql-ws admission', () => {
  it('serves only subscriptions: a query or mutation over the socket is BAD_REQUEST and writes nothing', async () => {
    const client = socket(t.server.url, { token: tok.mindA });
    try {
      await t.app.settle();
      const before = await nodes();
      const stored = await answer(client, STORE, { in: { store: A, content: 'written over a socket' } });
      expect(codeOf(stored), JSON.stringify(stored)).toBe('BAD_REQUEST');
      expect(stored.data ?? null).toBeNull();
      expect(codeOf(await answer(client, '{ health { neo4j } }'))).toBe('BAD_REQUEST');
      await t.app.settle();
      expect(await nodes()).toBe(before);
    } finally {
      await client.dispose();
    }
  });

  it('keeps introspection and field suggestions off, as over HTTP', async () => {
    const client = socket(t.server.url, { token: tok.mindA });
    try {
      const introspection = await answer(client, '{ __schema { types { name } } }');
      expect(codeOf(introspection), JSON.stringify(introspection)).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(introspection.data ?? null).toBeNull();
      const typo = await answer(client, 'subscription { notification(instanceId: "x") { id } }');
      expect(codeOf(typo)).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(JSON.stringify(typo.errors)).not.toContain('Did you mean');
    } finally {
      await client.dispose();
    }
  });

  it("refuses a revoked token's next operation and ends its open subscriptions within 5 s", async () => {
    const instance = `ws-revoke-${randomUUID().slice(0, 8)}`;
    const { token, id } = await freshToken(instance);
    const idle = socket(t.server.url, { token });
    const live = socket(t.server.url, { token });
    try {
      const subscription = answer(live, NOTIFY, { i: instance });
      expect(await within(500, subscription)).toBe('pending');

      await t.app.tokens.revoke(id);
      const revokedAt = Date.now();
      const ended = await within(6_000, subscription);
      expect(ended, JSON.stringify(ended)).toEqual({ closed: 4403 });
      expect(Date.now() - revokedAt).toBeLessThanOrEqual(5_000);

      // The idle socket stays open; its next operation gets HTTP's typed error.
      const refused = await answer(idle, '{ health { neo4j } }');
      expect(codeOf(refused), JSON.stringify(refused)).toBe('UNAUTHENTICATED');
      const again = socket(t.server.url, { token });
      expect(await answer(again, NOTIFY, { i: instance })).toEqual({ closed: 4403 });
      await again.dispose();
    } finally {
      await idle.dispose();
      await live.dispose();
    }
  });

  it('counts each operation against the rate limit', async () => {
    const limited = await startRateLimitedApp(5);
    const { token } = await freshToken(`ws-rate-${randomUUID().slice(0, 8)}`);
    const client = socket(limited.server.url, { token });
    try {
      const codes: unknown[] = [];
      // The connection is one request, each operation another: the fifth operation is the sixth request. (A count
      // made before the limiter's fresh Redis connection is up lands in its in-process fallback: allow one more.)
      for (let i = 0; i < 7; i++) codes.push(codeOf(await answer(client, '{ health { neo4j } }')));
      expect(codes.slice(5)).toEqual(['RATE_LIMITED', 'RATE_LIMITED']);
      const admitted = codes.indexOf('RATE_LIMITED');
      expect(admitted).toBeGreaterThanOrEqual(4);
      expect(new Set(codes.slice(0, admitted))).toEqual(new Set(['BAD_REQUEST']));
      expect(new Set(codes.slice(admitted))).toEqual(new Set(['RATE_LIMITED']));
      const refused = await answer(client, NOTIFY, { i: 'x' });
      expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', retryable: true });
      expect(refused.errors?.[0]?.extensions?.retryAfterMs).toBeGreaterThan(0);
    } finally {
      await client.dispose();
      await limited.stop();
    }
  });

  it('gives a subscription a slot while it is set up: BUSY when none is free, the slot back once it runs', async () => {
    const server = await startGraphQLServer(await buildGraphQLSchema(), t.app.ports, '127.0.0.1', 0, {
      ...(await t.app.serverOptions()),
      admission: { maxConcurrent: 1, maxQueued: 0, maxWaitMs: 1_000 },
    });
    const instance = `ws-busy-${randomUUID().slice(0, 8)}`;
    const { token } = await freshToken(instance);
    const client = socket(server.url, { token });
    try {
      const admission = server.admission;
      if (!admission) throw new Error('the server has no admission');
      const leave = await admission.enter(); // the one slot, taken by other work
      const busy = await within(3_000, answer(client, NOTIFY, { i: instance }));
      leave();
      expect(busy, JSON.stringify(busy)).toMatchObject({ errors: [{ extensions: { code: 'BUSY', retryable: true } }] });
      expect(admission.stats().refused).toBe(1);

      expect(await within(500, answer(client, NOTIFY, { i: instance }))).toBe('pending');
      // The live subscription holds no slot: other work still gets in.
      expect(admission.stats()).toMatchObject({ running: 0, waiting: 0 });
    } finally {
      await client.dispose();
      await server.stop();
    }
  });
});
