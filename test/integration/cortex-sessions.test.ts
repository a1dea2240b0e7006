/**
 * Cortex on the real Neo4j: per-instance sessions, modes, decisions, the
 * session audit, resume, isolation between instances (invariant 8), a
 * restart that keeps open sessions, and idle sessions ending with TIMEOUT.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMORY_FIELDS, randomStore, startTestApp, type TestApp } from '../helpers.js';
import { backgroundEnv, dropQueues, queuePrefix } from '../background.js';
import type { AnyMessage } from '../../src/domain/index.js';

let t: TestApp;
const store = randomStore('cortex');
const prefix = queuePrefix();
/** The app's clock: real time unless a test sets it. */
let fixedNow: number | null = null;

beforeAll(async () => {
  t = await startTestApp({ log: () => undefined, clock: () => fixedNow ?? Date.now() }, backgroundEnv(store, prefix));
});
afterAll(async () => {
  await t.dropStore(store);
  await t.stop();
  await dropQueues(prefix);
});

const SESSION =
  `id store instanceId mindType mode modeSince task project state startedAt lastActiveAt endedAt ` +
  `endCause decisions { id text rationale at } memoriesStored`;
const START = `mutation ($input: StartSessionInput!) { startSession(input: $input) { ${SESSION} } }`;
const TRANSITION =
  `mutation ($i: String!, $mode: WorkingMode!, $task: String, $context: JSON) { ` +
  `transition(instanceId: $i, mode: $mode, task: $task, context: $context) { ${SESSION} } }`;
const DECIDE =
  'mutation ($i: String!, $text: String!, $why: String) { logDecision(instanceId: $i, text: $text, rationale: $why) ' +
  '{ id text rationale at } }';
const END =
  `mutation ($i: String!, $reason: String) { endSession(instanceId: $i, reason: $reason) { prompt ` +
  `memoriesStored unclaimed { id content } session { ${SESSION} } } }`;
const STORE = `mutation ($input: StoreInput!) { store(input: $input) { ${MEMORY_FIELDS} } }`;

let n = 0;
const instance = (label = 'mind') => `${label}-${store.slice(-8)}-${++n}`;

async function start(instanceId: string, extra: Record<string, unknown> = {}) {
  const { startSession } = await t.ok<{ startSession: Record<string, any> }>(START, {
    input: { instanceId, mindType: 'claude', store, ...extra },
  });
  return startSession;
}

/** As the instance itself (x-instance-id), failing the test on any error. */
async function as<T = Record<string, any>>(
  instanceId: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const res = await t.gql<T>(query, variables, { 'x-instance-id': instanceId });
  if (res.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(res.errors)}`);
  return res.data as T;
}

/** Expects the typed error, and that neither this file's store nor the other stores named moved. */
async function expectRefused(
  query: string,
  variables: Record<string, unknown>,
  code: string,
  headers: Record<string, string> = {},
  alsoStores: string[] = [],
) {
  const counts = () => Promise.all([store, ...alsoStores].map((s) => t.countNodes(s)));
  const before = await counts();
  const res = await t.gql(query, variables, headers);
  expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res.errors)).toBe(code);
  expect(await counts()).toEqual(before);
}

function tapTypes(...types: string[]): { seen: AnyMessage[]; stop(): void } {
  const seen: AnyMessage[] = [];
  const stop = t.app.bus.tap((m) => {
    if (types.includes(m.type)) seen.push(m);
  });
  return { seen, stop };
}

describe('a session', () => {
  it('starts in TASK mode with a task (CONVERSATION without), recorded with its SessionStarted event', async () => {
    const i = instance();
    const s = await start(i, { task: 'write the parser', project: 'total-recall' });
    expect(s).toMatchObject({
      store,
      instanceId: i,
      mindType: 'claude',
      mode: 'TASK',
      task: 'write the parser',
      project: 'total-recall',
      endedAt: null,
      decisions: [],
      memoriesStored: 0,
    });
    expect(s.modeSince).toBe(s.startedAt);
    const chat = await start(instance());
    expect(chat.mode).toBe('CONVERSATION');
    const rows = await t.cypher<{ type: string }>(
      'MATCH (e:Event)-[:ABOUT]->(:Session {id: $id}) RETURN e.type AS type',
      { id: s.id },
    );
    expect(rows.map((r) => r.type)).toEqual(['SessionStarted']);
  });

  it('makes a retried start with the same id a no-op', async () => {
    const i = instance();
    const id = `ses-${store.slice(-8)}-retry`;
    const first = await start(i, { id });
    const again = await start(i, { id });
    expect(again).toEqual(first);
    const rows = await t.cypher<{ n: number }>('MATCH (s:Session {id: $id}) RETURN count(s) AS n', { id });
    expect(rows[0]?.n).toBe(1);
  });

  it('moves between modes: ModeChanged only when the mode changes, the task and state kept unless given', async () => {
    const i = instance();
    // The app's clock, a minute apart at each step: modeSince must name the step that changed the mode.
    const t0 = Date.UTC(2031, 0, 1, 9);
    const at = (minutes: number) => new Date(t0 + minutes * 60_000).toISOString();
    fixedNow = t0;
    try {
      const started = await start(i, { task: 'refactor' });
      expect(started.modeSince).toBe(at(0));
      const tap = tapTypes('ModeChanged', 'StateTransitioned');
      fixedNow = t0 + 60_000;
      const talk = (
        await as<{ transition: any }>(i, TRANSITION, { i, mode: 'CONVERSATION', context: { step: 3, files: ['a.ts'] } })
      ).transition;
      expect(talk).toMatchObject({
        mode: 'CONVERSATION',
        task: 'refactor',
        state: { step: 3, files: ['a.ts'] },
        modeSince: at(1),
      });
      fixedNow = t0 + 2 * 60_000;
      const again = (await as<{ transition: any }>(i, TRANSITION, { i, mode: 'CONVERSATION', task: 'review' }))
        .transition;
      expect(again).toMatchObject({
        mode: 'CONVERSATION',
        task: 'review',
        state: { step: 3, files: ['a.ts'] },
        modeSince: at(1),
      });
      fixedNow = t0 + 3 * 60_000;
      const work = (await as<{ transition: any }>(i, TRANSITION, { i, mode: 'TASK' })).transition;
      expect(work).toMatchObject({ mode: 'TASK', modeSince: at(3) });
      await t.app.bus.idle();
      tap.stop();
      expect(tap.seen.filter((m) => m.type === 'ModeChanged').map((m) => m.data.at)).toEqual([
        t0 + 60_000,
        t0 + 3 * 60_000,
      ]);
      expect(tap.seen.filter((m) => m.type === 'ModeChanged').map((m) => [m.data.from, m.data.to])).toEqual([
        ['TASK', 'CONVERSATION'],
        ['CONVERSATION', 'TASK'],
      ]);
      expect(tap.seen.filter((m) => m.type === 'StateTransitioned')).toHaveLength(3);
    } finally {
      fixedNow = null;
    }
  });

  it('logs decisions, links the memories it stores, and ends with its audit', async () => {
    const i = instance();
    const s = await start(i, { task: 'plan' });
    await as(i, DECIDE, { i, text: 'use BullMQ for timers', why: 'jobs survive a restart' });
    await as(i, DECIDE, { i, text: 'keep notifications in the graph' });
    const kept = (
      await as<{ store: { id: string; sessionId: string } }>(i, STORE, {
        input: { store, content: 'the parser needs a lookahead of two' },
      })
    ).store;
    const claimed = (
      await as<{ store: { id: string } }>(i, STORE, { input: { store, content: 'I promised Ana a review by Friday' } })
    ).store;
    const core = (
      await as<{ store: { id: string } }>(i, STORE, {
        input: { store, content: 'I care about honest recall', tier: 'IDENTITY_CORE' },
      })
    ).store;
    await t.ok('mutation ($id: ID!) { claim(id: $id) { id } }', { id: claimed.id });
    expect(kept.sessionId).toBe(s.id);
    const links = await t.cypher<{ id: string }>(
      'MATCH (m:Memory)-[:STORED_IN]->(:Session {id: $id}) RETURN m.id AS id ORDER BY id',
      { id: s.id },
    );
    expect(links.map((l) => l.id).sort()).toEqual([kept.id, claimed.id, core.id].sort());

    const { session } = await t.ok<{ session: any }>(`query ($id: ID!) { session(id: $id) { ${SESSION} } }`, {
      id: s.id,
    });
    expect(session.decisions.map((d: { text: string }) => d.text)).toEqual([
      'use BullMQ for timers',
      'keep notifications in the graph',
    ]);
    expect(session.decisions[0].rationale).toBe('jobs survive a restart');
    expect(session.memoriesStored).toBe(3);

    const tap = tapTypes('SessionEnded');
    const { endSession } = await as<{ endSession: any }>(i, END, { i, reason: 'done for today' });
    tap.stop();
    expect(endSession.prompt).toBe('Session ending. What do you refuse to lose?');
    expect(endSession.memoriesStored).toBe(3);
    expect(endSession.unclaimed.map((m: { id: string }) => m.id)).toEqual([kept.id]);
    expect(endSession.session).toMatchObject({ id: s.id, endCause: 'EXPLICIT' });
    expect(endSession.session.endedAt).not.toBeNull();
    expect(tap.seen.map((m) => m.type)).toEqual(['SessionEnded']);
    const events = await t.cypher<{ type: string }>(
      'MATCH (e:Event)-[:ABOUT]->(:Session {id: $id}) RETURN e.type AS type ORDER BY e.id',
      { id: s.id },
    );
    expect(events.map((e) => e.type)).toEqual(['SessionStarted', 'DecisionLogged', 'DecisionLogged', 'SessionEnded']);
  });

  it('refuses transition, logDecision and endSession without an open session, writing nothing', async () => {
    const i = instance();
    await expectRefused(TRANSITION, { i, mode: 'TASK' }, 'CORTEX.NO_OPEN_SESSION');
    await expectRefused(DECIDE, { i, text: 'nothing to decide' }, 'CORTEX.NO_OPEN_SESSION');
    await expectRefused(END, { i }, 'CORTEX.NO_OPEN_SESSION');
    await start(i);
    await as(i, END, { i });
    await expectRefused(TRANSITION, { i, mode: 'IDLE' }, 'CORTEX.NO_OPEN_SESSION');
    await expectRefused(END, { i }, 'CORTEX.NO_OPEN_SESSION');
  });

  it('refuses bad input with typed errors, writing nothing', async () => {
    await expectRefused(
      START,
      { input: { instanceId: '  ', mindType: 'claude', store } },
      'CORTEX.INVALID_INSTANCE_ID',
    );
    await expectRefused(START, { input: { instanceId: instance(), mindType: '', store } }, 'CORTEX.INVALID_MIND_TYPE');
    await expectRefused(
      START,
      { input: { instanceId: 'agent\n2', mindType: 'claude', store } },
      'CORTEX.INVALID_INSTANCE_ID',
    );
    // A session there would be written under the name with the NUL: count that store too.
    await expectRefused(
      START,
      { input: { instanceId: instance(), mindType: 'claude', store: `${store}\u0000` } },
      'CORTEX.INVALID_STORE',
      {},
      [`${store}\u0000`],
    );
    await expectRefused(
      START,
      { input: { id: 'has:colon', instanceId: instance(), mindType: 'claude', store } },
      'CORTEX.INVALID_ID',
    );
    const i = instance();
    await start(i);
    await expectRefused(DECIDE, { i, text: '   ' }, 'CORTEX.TEXT_REQUIRED');
    await expectRefused(
      TRANSITION,
      { i, mode: 'TASK', context: { big: 'x'.repeat(70_000) } },
      'CORTEX.STATE_TOO_LARGE',
    );
    const bad = await t.gql('query ($s: String) { sessions(store: $s, limit: 0) { id } }', { s: store });
    expect(bad.errors?.[0]?.extensions?.code).toBe('CORTEX.INVALID_LIMIT');
  });
});
