/**
 * Cortex on the real Neo4j, the second half: isolation between instances (invariant 8), resume, a restart
 * that keeps open sessions, idle sessions ending with TIMEOUT, and callers naming themselves.
 */
import { describe, expect, it } from 'vitest';
import { randomStore, startTestApp } from '../helpers.js';
import { backgroundEnv, eventually, queuePrefix, startBackgroundApp, stopBackgroundApp } from '../background.js';
import type { AnyMessage } from '../../src/domain/index.js';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

import {
  DECIDE,
  END,
  SESSION,
  START,
  STORE,
  TRANSITION,
  as,
  expectRefused,
  instance,
  prefix,
  start,
  store,
  t,
  tapTypes,
  useCortexApp,
} from './cortex-sessions-fixture.js';

useCortexApp();

describe('activity on a session', () => {
  it('is marked by a change that succeeded, never by one refused', async () => {
    const i = instance('active');
    const s = await start(i);
    const lastActive = async () =>
      (
        await t.cypher<{ at: number }>('MATCH (x:Session {id: $id}) RETURN x.lastActiveAt.epochMillis AS at', {
          id: s.id,
        })
      )[0]?.at;
    await t.cypher('MATCH (x:Session {id: $id}) SET x.lastActiveAt = datetime("2020-01-01T00:00:00Z")', { id: s.id });
    const idle = await lastActive();
    const header = { 'x-instance-id': i };
    await expectRefused(STORE, { input: { store, content: '   ' } }, 'HIPPOCAMPUS.CONTENT_EMPTY', header);
    expect(await lastActive()).toBe(idle);
    const forget = 'mutation ($in: ForgetInput!) { forget(input: $in) { forgotten } }';
    const kept = (await as<{ store: { id: string } }>(i, STORE, { input: { store, content: 'kept' } })).store;
    await t.cypher('MATCH (x:Session {id: $id}) SET x.lastActiveAt = datetime("2020-01-01T00:00:00Z")', { id: s.id });
    await expectRefused(
      forget,
      { in: { id: kept.id, confirmId: 'not-it', reason: 'test' } },
      'HIPPOCAMPUS.FORGET_NOT_CONFIRMED',
      header,
    );
    expect(await lastActive()).toBe(idle);
    await as(i, STORE, { input: { store, content: 'a fact worth keeping' } });
    expect(await lastActive()).toBeGreaterThan(idle as number);
  });
});

describe('instances (invariant 8)', () => {
  it('keeps two instances’ working state apart: only memories are shared', async () => {
    const [a, b] = [instance('a'), instance('b')];
    const sa = await start(a, { task: 'A works on search' });
    const sb = await start(b, { task: 'B works on storage' });
    await Promise.all([
      as(a, DECIDE, { i: a, text: 'A decides' }),
      as(b, DECIDE, { i: b, text: 'B decides' }),
      as(a, TRANSITION, { i: a, mode: 'CONVERSATION', context: { mine: 'A' } }),
      as(b, TRANSITION, { i: b, mode: 'IDLE', context: { mine: 'B' } }),
    ]);
    const ma = (
      await as<{ store: { id: string; sessionId: string } }>(a, STORE, {
        input: { store, content: 'a fact A learned' },
      })
    ).store;
    const mb = (
      await as<{ store: { id: string; sessionId: string } }>(b, STORE, {
        input: { store, content: 'a fact B learned' },
      })
    ).store;
    expect([ma.sessionId, mb.sessionId]).toEqual([sa.id, sb.id]);

    const read = (who: string, id: string) =>
      as<{ session: any }>(who, `query ($id: ID!) { session(id: $id) { ${SESSION} } }`, { id });
    const ownA = (await read(a, sa.id)).session;
    expect(ownA).toMatchObject({ mode: 'CONVERSATION', state: { mine: 'A' }, memoriesStored: 1 });
    expect(ownA.decisions.map((d: { text: string }) => d.text)).toEqual(['A decides']);
    expect((await read(a, sb.id)).session).toBeNull();
    expect((await read(b, sb.id)).session).toMatchObject({ mode: 'IDLE', state: { mine: 'B' } });

    // A names only itself: acting on or reading B is refused, and writes nothing.
    const asA = { 'x-instance-id': a };
    await expectRefused(TRANSITION, { i: b, mode: 'TASK' }, 'CORTEX.FOREIGN_INSTANCE', asA);
    await expectRefused(DECIDE, { i: b, text: 'sneaky' }, 'CORTEX.FOREIGN_INSTANCE', asA);
    await expectRefused(END, { i: b }, 'CORTEX.FOREIGN_INSTANCE', asA);
    const mine = await as<{ sessions: { instanceId: string }[] }>(
      a,
      'query ($s: String) { sessions(store: $s, limit: 100) { instanceId } }',
      { s: store },
    );
    expect(new Set(mine.sessions.map((s) => s.instanceId))).toEqual(new Set([a]));

    // Shared knowledge flows through memories: B reads what A stored.
    const shared = await as<{ memory: { content: string } }>(b, 'query ($id: ID!) { memory(id: $id) { content } }', {
      id: ma.id,
    });
    expect(shared.memory.content).toBe('a fact A learned');
  });

  it('ends a session left open by a crashed process with CRASH when the instance starts again', async () => {
    const i = instance();
    const old = await start(i, { task: 'interrupted' });
    const tap = tapTypes('SessionEnded');
    const fresh = await start(i);
    await t.app.bus.idle();
    tap.stop();
    expect(fresh.id).not.toBe(old.id);
    const { session } = await t.ok<{ session: any }>(`query ($id: ID!) { session(id: $id) { ${SESSION} } }`, {
      id: old.id,
    });
    expect(session).toMatchObject({ endCause: 'CRASH' });
    expect(tap.seen.map((m) => m.type === 'SessionEnded' && m.data.sessionId)).toEqual([old.id]);
    const open = await t.cypher<{ n: number }>('MATCH (s:Session {openInstance: $i}) RETURN count(s) AS n', { i });
    expect(open[0]?.n).toBe(1);
  });
});

describe('resume', () => {
  it('returns the newest session, the identity core and the active context', async () => {
    const s2 = randomStore('resume');
    try {
      const i = instance();
      await t.ok(START, { input: { instanceId: i, mindType: 'claude', store: s2, task: 'first' } });
      await as(i, DECIDE, { i, text: 'first decision' });
      await as(i, END, { i });
      const second = (
        await t.ok<{ startSession: any }>(START, {
          input: { instanceId: i, mindType: 'claude', store: s2, task: 'second' },
        })
      ).startSession;
      await as(i, TRANSITION, { i, mode: 'TASK', context: { cursor: 42 } });
      const core = (
        await t.ok<{ store: { id: string } }>(STORE, {
          input: { store: s2, content: 'who I am', tier: 'IDENTITY_CORE' },
        })
      ).store;
      const active = (
        await t.ok<{ store: { id: string } }>(STORE, {
          input: { store: s2, content: 'what I am doing', tier: 'ACTIVE_CONTEXT' },
        })
      ).store;
      await t.ok(STORE, { input: { store: s2, content: 'long ago', tier: 'LONG_TERM' } });
      const other = (
        await t.ok<{ startSession: any }>(START, { input: { instanceId: instance(), mindType: 'human', store: s2 } })
      ).startSession;

      const R =
        `query ($s: String, $i: String) { resume(store: $s, instanceId: $i) { session { id task state mode } ` +
        `identity { id } activeContext { id } } }`;
      const mine = (await t.ok<{ resume: any }>(R, { s: s2, i })).resume;
      expect(mine.session).toEqual({ id: second.id, task: 'second', state: { cursor: 42 }, mode: 'TASK' });
      expect(mine.identity.map((m: { id: string }) => m.id)).toEqual([core.id]);
      expect(mine.activeContext.map((m: { id: string }) => m.id)).toEqual([active.id]);
      const newest = (await t.ok<{ resume: any }>(R, { s: s2, i: null })).resume;
      expect(newest.session.id).toBe(other.id);
      const empty = (await t.ok<{ resume: any }>(R, { s: randomStore('nothing'), i })).resume;
      expect(empty).toEqual({ session: null, identity: [], activeContext: [] });
    } finally {
      await t.dropStore(s2);
    }
  });
});

describe('restarts and timeouts', () => {
  it('keeps open sessions across a restart of the service', async () => {
    const i = instance();
    const s = await start(i, { task: 'survive a restart' });
    const again = await startTestApp({ log: () => undefined }, backgroundEnv(store, prefix));
    try {
      const { transition } = await again.ok<{ transition: any }>(TRANSITION, { i, mode: 'CONVERSATION' });
      expect(transition).toMatchObject({ id: s.id, task: 'survive a restart', mode: 'CONVERSATION', endedAt: null });
    } finally {
      await again.stop();
    }
  });

  it('ends a session idle past the configured time with TIMEOUT, and not before', async () => {
    const s3 = randomStore('idle');
    const p3 = queuePrefix();
    let offset = 0;
    const bg = await startBackgroundApp(
      s3,
      p3,
      { TOTAL_RECALL_SESSION_IDLE_MS: '60000', TOTAL_RECALL_SESSION_SWEEP_MS: '200' },
      { clock: () => Date.now() + offset },
    );
    try {
      const i = instance();
      const busy = instance();
      const s = (await bg.ok<{ startSession: any }>(START, { input: { instanceId: i, mindType: 'claude', store: s3 } }))
        .startSession;
      const lastRun = () =>
        bg.ok<{ health: { queues: any[] } }>('{ health { queues { name everyMs lastRun { ok at result } } } }');
      // Sweeps run, and the session stays open while it is not idle.
      await eventually(async () =>
        (await lastRun()).health.queues.find((q) => q.name === 'session-sweep')?.lastRun?.ok ? true : undefined,
      );
      expect(
        (await bg.ok<{ session: any }>('query ($id: ID!) { session(id: $id) { endedAt } }', { id: s.id })).session
          .endedAt,
      ).toBeNull();
      // Two minutes later (by the app's clock), with no call from the instance in between.
      offset = 120_000;
      const other = (
        await bg.ok<{ startSession: any }>(START, { input: { instanceId: busy, mindType: 'claude', store: s3 } })
      ).startSession;
      const ended = await eventually(async () => {
        const { session } = await bg.ok<{ session: any }>(
          'query ($id: ID!) { session(id: $id) { endedAt endCause endReason } }',
          { id: s.id },
        );
        return session.endedAt ? session : undefined;
      });
      expect(ended.endCause).toBe('TIMEOUT');
      expect(ended.endReason).toMatch(/no activity for 1 minutes/);
      const still = await bg.ok<{ session: any }>('query ($id: ID!) { session(id: $id) { endedAt } }', {
        id: other.id,
      });
      expect(still.session.endedAt).toBeNull();
      const sweep = (await lastRun()).health.queues.find((q) => q.name === 'session-sweep');
      expect(sweep.everyMs).toBe(200);
    } finally {
      await stopBackgroundApp(bg, s3, p3);
    }
  });
});

describe('callers naming themselves (x-instance-id, x-session-id)', () => {
  const MEMORY = 'mutation ($input: StoreInput!) { store(input: $input) { id sessionId } }';

  it('carries x-session-id into every event the call causes, on the bus and in the audit trail', async () => {
    const sessionId = `ses-${store.slice(-8)}-header`;
    const headers = { 'x-session-id': sessionId };
    const seen: AnyMessage[] = [];
    const untap = t.app.bus.tap((m) => void seen.push(m));
    const call = async <T>(query: string, variables: Record<string, unknown>) => {
      const res = await t.gql<T>(query, variables, headers);
      if (res.errors?.length) throw new Error(JSON.stringify(res.errors));
      return res.data as T;
    };
    const { store: m } = await call<{ store: { id: string; sessionId: string } }>(MEMORY, {
      input: { store, content: 'stored under a session the caller names' },
    });
    expect(m.sessionId).toBe(sessionId);
    await call('mutation ($id: ID!) { claim(id: $id) { id } }', { id: m.id });
    await call('mutation ($id: ID!) { reclassify(id: $id, tier: ACTIVE_CONTEXT, reason: "working on it") { id } }', {
      id: m.id,
    });
    await call('query ($id: ID!) { memory(id: $id) { id } }', { id: m.id });
    const { search } = await call<{ search: { id: string } }>(
      'query ($in: SearchInput!) { search(input: $in) { id } }',
      { in: { store, query: 'stored under a session' } },
    );
    await call('mutation ($r: ID!, $ids: [ID!]) { markUsed(recallId: $r, memoryIds: $ids) { id } }', {
      r: search.id,
      ids: [m.id],
    });
    await t.app.bus.idle();
    untap();
    const events = seen.filter((e) => !e.type.endsWith('Command') && !e.type.endsWith('Query'));
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        'MemoryStored',
        'MemoryClaimed',
        'MemoryReclassified',
        'MemoryAccessed',
        'MemoryRetrieved',
        'MemoryUsed',
      ]),
    );
    for (const e of seen) expect(e.meta.sessionId, `${e.type} from ${e.meta.sourceContext}`).toBe(sessionId);
    // The trail keeps it on every event node about the memory.
    const trail = await t.cypher<{ type: string; sessionId: string | null }>(
      'MATCH (e:Event)-[:ABOUT]->(:Memory {id: $id}) RETURN e.type AS type, e.sessionId AS sessionId',
      { id: m.id },
    );
    expect(trail.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        'MemoryStored',
        'MemoryClaimed',
        'MemoryReclassified',
        'MemoryAccessed',
        'MemoryRetrieved',
        'MemoryUsed',
      ]),
    );
    for (const e of trail) expect(e.sessionId, e.type).toBe(sessionId);
  });

  it.each([
    ['x-instance-id', 'agent\t2'],
    ['x-session-id', 'ses\t1'],
  ])('refuses %s holding a control character, writing nothing', async (name, value) => {
    const before = await t.countNodes(store);
    const stored = await t.gql(MEMORY, { input: { store, content: `sent with a bad ${name}` } }, { [name]: value });
    expect(stored.errors?.[0]?.extensions?.code, JSON.stringify(stored.errors)).toMatch(
      /^CORTEX\.INVALID_(INSTANCE|SESSION)_ID$/,
    );
    expect(stored.data ?? null).toBeNull();
    const { store: m } = await t.ok<{ store: { id: string } }>(MEMORY, {
      input: { store, content: `claimed with a bad ${name}` },
    });
    await t.app.bus.idle();
    const mid = await t.countNodes(store);
    const claimed = await t.gql('mutation ($id: ID!) { claim(id: $id) { id } }', { id: m.id }, { [name]: value });
    expect(claimed.errors?.[0]?.extensions?.code, JSON.stringify(claimed.errors)).toMatch(
      /^CORTEX\.INVALID_(INSTANCE|SESSION)_ID$/,
    );
    await t.app.bus.idle();
    expect(await t.countNodes(store)).toBe(mid);
    expect(mid).toBe(before + 2); // the good store: its memory and its event
  });

  it('refuses connectionParams holding a control character over graphql-ws', async () => {
    const client = createClient({
      url: t.server.url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      connectionParams: { instanceId: 'agent\n2' },
      retryAttempts: 0,
      lazy: true,
    });
    try {
      const result = await new Promise<{ errors?: unknown; data?: unknown }>((resolve) => {
        const out: { errors?: unknown; data?: unknown } = {};
        client.subscribe(
          {
            query: 'mutation ($input: StoreInput!) { store(input: $input) { id } }',
            variables: { input: { store, content: 'over a socket with a bad instance id' } },
          },
          { next: (r) => Object.assign(out, r), error: (e) => resolve({ errors: e }), complete: () => resolve(out) },
        );
      });
      expect(JSON.stringify(result.errors ?? null)).toMatch(/CORTEX\.INVALID_INSTANCE_ID/);
      expect(result.data ?? null).toBeNull();
    } finally {
      await client.dispose();
    }
  });
});
