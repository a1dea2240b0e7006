/**
 * Cortex on the real Neo4j: per-instance sessions, modes, decisions, the
 * session audit, resume, isolation between instances (invariant 8), a
 * restart that keeps open sessions, and idle sessions ending with TIMEOUT.
 */
import { describe, expect, it } from 'vitest';

import {
  DECIDE,
  END,
  SESSION,
  START,
  STORE,
  TRANSITION,
  as,
  clock,
  expectRefused,
  instance,
  start,
  store,
  t,
  tapTypes,
  useCortexApp,
} from './cortex-sessions-fixture.js';

useCortexApp();

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
    clock.fixed = t0;
    try {
      const started = await start(i, { task: 'refactor' });
      expect(started.modeSince).toBe(at(0));
      const tap = tapTypes('ModeChanged', 'StateTransitioned');
      clock.fixed = t0 + 60_000;
      const talk = (
        await as<{ transition: any }>(i, TRANSITION, { i, mode: 'CONVERSATION', context: { step: 3, files: ['a.ts'] } })
      ).transition;
      expect(talk).toMatchObject({
        mode: 'CONVERSATION',
        task: 'refactor',
        state: { step: 3, files: ['a.ts'] },
        modeSince: at(1),
      });
      clock.fixed = t0 + 2 * 60_000;
      const again = (await as<{ transition: any }>(i, TRANSITION, { i, mode: 'CONVERSATION', task: 'review' }))
        .transition;
      expect(again).toMatchObject({
        mode: 'CONVERSATION',
        task: 'review',
        state: { step: 3, files: ['a.ts'] },
        modeSince: at(1),
      });
      clock.fixed = t0 + 3 * 60_000;
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
      clock.fixed = null;
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
