/**
 * The Subconscious on the real Redis (BullMQ) and Neo4j, with short test
 * thresholds: a job scheduler fires, a killed worker's job is recovered by
 * another, a break notification arrives after the threshold and not before,
 * the session audit arrives on endSession (live and by polling), and quiet
 * stores get their near-duplicates consolidated, the originals kept.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import {
  backgroundEnv,
  dropQueues,
  eventually,
  queuePrefix,
  startBackgroundApp,
  stopBackgroundApp,
  subscribe,
  wsClient,
} from '../background.js';
import type { AnyMessage } from '../../src/domain/index.js';
import type { AppOptions } from '../../src/app.js';
import { breakJobId } from '../../src/contexts/subconscious/testing.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean().catch((error) => console.error(error));
});

/** An app with workers, confined to its own store and queue prefix, removed afterwards. */
async function backgroundApp(
  extra: Record<string, string> = {},
  label = 'sub',
  options: AppOptions = {},
): Promise<{ t: TestApp; store: string; prefix: string }> {
  const store = randomStore(label);
  const prefix = queuePrefix();
  const t = await startBackgroundApp(store, prefix, extra, options);
  cleanups.push(() => stopBackgroundApp(t, store, prefix));
  return { t, store, prefix };
}

const START = 'mutation ($input: StartSessionInput!) { startSession(input: $input) { id mode modeSince } }';
const TRANSITION =
  'mutation ($i: String!, $mode: WorkingMode!) { transition(instanceId: $i, mode: $mode) { id mode modeSince } }';
const NOTIFY =
  'subscription ($i: String!, $after: ID) { notifications(instanceId: $i, after: $after) { id kind instanceId ' +
  'sessionId message at payload } }';
const POLL =
  'query ($i: String!, $after: ID) { notifications(instanceId: $i, after: $after) { id kind ' +
  'sessionId message payload } }';
const QUEUES =
  '{ health { queues { name waiting active delayed failed completed everyMs lastRun { jobId ok lagMs durationMs ' +
  'error result } } } }';

describe('job schedulers', () => {
  it('fires the decay sweep on its schedule, for the stores in scope, and shows it in health', async () => {
    const { t, store } = await backgroundApp({ TOTAL_RECALL_DECAY_SWEEP_MS: '400' });
    const sweeps: number[] = [];
    const slots: number[] = [];
    const untap = t.app.bus.tap((m: AnyMessage) => {
      if (m.type === 'SweepDecay' && m.data.store === store) sweeps.push(Date.now());
    });
    // Scheduler jobs are named by their slot (repeat:decay-sweep:<ms>): one job per slot, slots one period apart.
    t.app.jobs.onRun((kind, run) => {
      if (kind === 'decay-sweep') slots.push(Number(run.jobId.split(':').at(-1)));
    });
    await eventually(async () => (sweeps.length >= 3 && slots.length >= 3 ? true : undefined), 15_000);
    untap();
    expect(new Set(slots).size).toBe(slots.length);
    for (const [i, slot] of slots.slice(1).entries()) expect((slot - (slots[i] as number)) % 400).toBe(0);
    const { health } = await t.ok<{ health: { queues: any[] } }>(QUEUES);
    const decay = health.queues.find((q) => q.name === 'decay-sweep');
    expect(decay).toMatchObject({ everyMs: 400, failed: 0 });
    expect(decay.lastRun).toMatchObject({ ok: true, error: null, result: { stores: [store] } });
    expect(decay.lastRun.jobId).toMatch(/^repeat:decay-sweep:/);
    expect(health.queues.map((q) => q.name).sort()).toEqual([
      'break-check',
      'cold-storage',
      'cold-storage-checkpoint',
      'consolidation',
      'decay-sweep',
      'reconcile',
      'session-audit',
      'session-sweep',
    ]);
  });
});

describe('a worker crash', () => {
  it('recovers the job a killed worker held, in another worker', async () => {
    const store = randomStore('crash');
    const prefix = queuePrefix();
    // An API-only app (no workers) ends a session: its audit job waits in Redis.
    const api = await startTestApp({ log: () => undefined }, backgroundEnv(store, prefix));
    let child: ChildProcess | null = null;
    cleanups.push(async () => {
      child?.kill('SIGKILL');
      await api.dropStore(store);
      await api.stop();
      await dropQueues(prefix);
    });
    const output: string[] = [];
    child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/hanging-worker.ts', prefix], {
      env: process.env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    createInterface({ input: child.stdout! }).on('line', (line) => output.push(line));
    await eventually(async () => (output.includes('READY') ? true : undefined), 30_000);

    const i = `crash-${prefix}`;
    const s = (
      await api.ok<{ startSession: { id: string } }>(START, { input: { instanceId: i, mindType: 'claude', store } })
    ).startSession;
    await api.ok('mutation ($i: String!) { endSession(instanceId: $i) { prompt } }', { i });
    const jobId = `audit-${s.id}`;
    await eventually(async () => (output.includes(`ACTIVE session-audit ${jobId}`) ? true : undefined), 15_000);
    child.kill('SIGKILL');
    await new Promise((resolve) => child?.once('exit', resolve));
    expect(await api.ok<{ notifications: unknown[] }>(POLL, { i })).toEqual({ notifications: [] });

    // Another worker takes it over once the dead worker's lock (1 s) has expired.
    const rescuer = await startBackgroundApp(store, prefix, {
      TOTAL_RECALL_JOB_LOCK_MS: '1000',
      TOTAL_RECALL_STALLED_INTERVAL_MS: '500',
    });
    cleanups.push(() => stopBackgroundApp(rescuer, store, prefix));
    const [audit] = await eventually(async () => {
      const { notifications } = await api.ok<{ notifications: any[] }>(POLL, { i });
      return notifications.length > 0 ? notifications : undefined;
    }, 30_000);
    expect(audit).toMatchObject({
      kind: 'SESSION_AUDIT',
      sessionId: s.id,
      message: 'Session ending. What do you refuse to lose?',
    });
    // The job itself completes (the notification is recorded just before it finishes).
    await eventually(
      async () =>
        (await (await rescuer.app.jobs.queue('session-audit').getJob(jobId))?.getState()) === 'completed'
          ? true
          : undefined,
      10_000,
    );
    const { health } = await rescuer.ok<{ health: { queues: any[] } }>(QUEUES);
    expect(health.queues.find((q) => q.name === 'session-audit').lastRun).toMatchObject({ jobId, ok: true });
  });
});

/** Break checks every `threshold`, no sweep re-arming while a test's clock jumps, no idle timeout unless given. */
const breakEnv = (threshold: number, idleMs = 365 * 24 * 3_600_000) => ({
  TOTAL_RECALL_BREAK_AFTER_MS: String(threshold),
  TOTAL_RECALL_SESSION_IDLE_MS: String(idleMs),
  TOTAL_RECALL_SESSION_SWEEP_MS: String(24 * 3_600_000),
});

/** A session enters TASK mode; its first break check (every 30 min) runs five and a half thresholds late. */
async function lateBreakCheck(idleMs?: number) {
  const threshold = 30 * 60_000;
  const T0 = Date.UTC(2031, 5, 1, 9);
  let now = T0;
  const { t, store, prefix } = await backgroundApp(breakEnv(threshold, idleMs), 'late', { clock: () => now });
  const i = `late-${prefix}`;
  const s = (
    await t.ok<{ startSession: any }>(START, { input: { instanceId: i, mindType: 'claude', store, task: 'x' } })
  ).startSession;
  const queue = t.app.jobs.queue('break-check');
  const id = (n: number) => breakJobId({ sessionId: s.id, instanceId: i, modeSince: T0, n });
  const job = await eventually(async () => (await queue.getJob(id(1))) ?? undefined, 10_000, 50);
  now = T0 + 5.5 * threshold;
  await job.promote();
  const result = await eventually(async () => {
    if ((await queue.getJobState(id(1))) !== 'completed') return undefined;
    return (await queue.getJob(id(1)))!.returnvalue as { notified: boolean };
  });
  const { notifications } = await t.ok<{ notifications: any[] }>(POLL, { i });
  return { queue, id, result, notifications, dueAt: (n: number) => T0 + n * threshold - now };
}

describe('break checks', () => {
  it('run late (workers were down), notify once and arm the first check not yet due', async () => {
    const { queue, id, result, notifications, dueAt } = await lateBreakCheck();
    expect(result).toEqual({ notified: true });
    const next = await eventually(async () => (await queue.getJob(id(6))) ?? undefined, 20_000, 50);
    expect(await next.getState()).toBe('delayed');
    expect(next.delay).toBe(dueAt(6));
    expect(await queue.getJob(id(2))).toBeUndefined();
    expect(notifications.map((n) => [n.kind, n.payload.minutesInTask])).toEqual([['BREAK', 150]]);
  });

  it('run late for a session idle past the timeout, notify nothing (the session sweep ends it)', async () => {
    const { queue, id, result, notifications } = await lateBreakCheck(2 * 30 * 60_000);
    expect(result).toEqual({ notified: false });
    expect(notifications).toEqual([]);
    expect(await queue.getJob(id(2))).toBeUndefined();
    expect(await queue.getJob(id(6))).toBeUndefined();
  });

  it('notifies after the threshold in TASK mode and not before; ModeChanged resets the clock', async () => {
    // The app's clock is the test's: time passes when the test says so, and a
    // break check's delayed job runs when the test promotes it (as BullMQ would
    // once its delay is over). Nothing here waits on the wall clock.
    const threshold = 90 * 60_000;
    const T0 = Date.UTC(2031, 5, 1, 9);
    let now = T0;
    const clock = () => now;
    const { t, store, prefix } = await backgroundApp(breakEnv(threshold), 'sub', { clock });
    const [worker, talker] = [`worker-${prefix}`, `talker-${prefix}`];
    const client = wsClient(t, worker);
    const clientB = wsClient(t, talker);
    cleanups.push(async () => {
      await client.dispose();
      await clientB.dispose();
    });
    // With `after`, a subscription replays what was kept before it got going: it misses nothing.
    const live = subscribe<{ notifications: any }>(client, NOTIFY, { i: worker, after: '' });
    const liveB = subscribe<{ notifications: any }>(clientB, NOTIFY, { i: talker, after: '' });
    const queue = t.app.jobs.queue('break-check');
    const check = (sessionId: string, instanceId: string, modeSince: number, n: number) =>
      breakJobId({ sessionId, instanceId, modeSince, n });
    /** The delayed job of a check armed at `armedAt`: it exists, waits until its due time, and has not run. */
    const armed = async (id: string, armedAt: number) => {
      const job = await eventually(async () => (await queue.getJob(id)) ?? undefined, 10_000, 50);
      expect(await job.getState(), id).toBe('delayed');
      expect(job.delay, id).toBe(job.data.modeSince + job.data.n * threshold - armedAt);
    };
    /** Time reaches the job's due time; BullMQ runs it; its result. */
    const fire = async (id: string) => {
      const job = (await queue.getJob(id))!;
      now = job.data.modeSince + job.data.n * threshold;
      await job.promote();
      // The state first, then the job: a job read while still active carries no return value yet,
      // even if it has completed by the time its state is asked.
      return eventually(
        async () => {
          if ((await queue.getJobState(id)) !== 'completed') return undefined;
          return (await queue.getJob(id))!.returnvalue as { notified: boolean };
        },
        20_000,
        50,
      );
    };
    const kept = async (i: string) => (await t.ok<{ notifications: any[] }>(POLL, { i })).notifications;

    const s = (
      await t.ok<{ startSession: any }>(START, {
        input: { instanceId: worker, mindType: 'claude', store, task: 'deep work' },
      })
    ).startSession;
    const b = (
      await t.ok<{ startSession: any }>(START, {
        input: { instanceId: talker, mindType: 'claude', store, task: 'short burst' },
      })
    ).startSession;
    expect([s.mode, b.mode, Date.parse(s.modeSince), Date.parse(b.modeSince)]).toEqual(['TASK', 'TASK', T0, T0]);
    const firstA = check(s.id, worker, T0, 1);
    const firstB = check(b.id, talker, T0, 1);
    await armed(firstA, T0);
    await armed(firstB, T0);

    // B leaves TASK mode well before its threshold: its break clock resets.
    now = T0 + threshold / 4;
    await t.ok(TRANSITION, { i: talker, mode: 'CONVERSATION' });
    // Halfway: both checks still wait; nothing was sent, live or kept.
    now = T0 + threshold / 2;
    await armed(firstA, T0);
    await armed(firstB, T0);
    expect([await kept(worker), await kept(talker)]).toEqual([[], []]);

    // At the threshold A's check runs and notifies; B's finds the clock reset and does not.
    expect(await fire(firstA)).toEqual({ notified: true });
    const { value } = await live.next((v) => v.notifications.kind === 'BREAK', 20_000);
    expect(Date.parse(value.notifications.at)).toBe(T0 + threshold);
    expect(value.notifications).toMatchObject({
      kind: 'BREAK',
      instanceId: worker,
      sessionId: s.id,
      payload: { minutesInTask: 90 },
    });
    expect(value.notifications.message).toMatch(/sustained task mode for 90 minutes on "deep work"/);
    expect(await fire(firstB)).toEqual({ notified: false });
    expect(await kept(talker)).toEqual([]);
    // A's next check waits a further threshold.
    await armed(check(s.id, worker, T0, 2), T0 + threshold);

    // Back in TASK mode, B gets its break a full threshold after re-entering, and only then.
    now = T0 + threshold + 5 * 60_000;
    const back = (await t.ok<{ transition: any }>(TRANSITION, { i: talker, mode: 'TASK' })).transition;
    const reentered = Date.parse(back.modeSince);
    expect(reentered).toBe(now);
    const againB = check(b.id, talker, reentered, 1);
    await armed(againB, reentered);
    expect(await kept(talker)).toEqual([]);
    expect(await fire(againB)).toEqual({ notified: true });
    const forB = await liveB.next((v) => v.notifications.kind === 'BREAK', 20_000);
    expect(Date.parse(forB.value.notifications.at) - reentered).toBe(threshold);
    expect(forB.value.notifications.sessionId).toBe(b.id);
    // Kept in the graph: polling sees the same notification, and it is B's only one.
    expect((await kept(talker)).map((n) => n.id)).toEqual([forB.value.notifications.id]);
    expect(new Set(liveB.items.map((i) => i.value.notifications.id))).toEqual(new Set([forB.value.notifications.id]));
  });
});

describe('the session audit', () => {
  it('arrives on endSession with the unclaimed memories, live and by polling after a cursor', async () => {
    const { t, store, prefix } = await backgroundApp();
    const i = `auditor-${prefix}`;
    const client = wsClient(t, i);
    cleanups.push(async () => client.dispose());
    // With `after`, what was kept before the subscription got going is replayed: it misses nothing.
    const live = subscribe<{ notifications: any }>(client, NOTIFY, { i, after: '' });
    const s = (await t.ok<{ startSession: any }>(START, { input: { instanceId: i, mindType: 'claude', store } }))
      .startSession;
    const store1 = await t.gql<{ store: { id: string } }>(
      'mutation ($in: StoreInput!) { store(input: $in) { id } }',
      { in: { store, content: 'unclaimed thought' } },
      { 'x-instance-id': i },
    );
    const store2 = await t.gql<{ store: { id: string } }>(
      'mutation ($in: StoreInput!) { store(input: $in) { id } }',
      { in: { store, content: 'claimed thought' } },
      { 'x-instance-id': i },
    );
    await t.ok('mutation ($id: ID!) { claim(id: $id) { id } }', { id: store2.data?.store.id });
    const { endSession } = await t.ok<{ endSession: any }>(
      'mutation ($i: String!) { endSession(instanceId: $i) { unclaimed { id } } }',
      { i },
    );
    expect(endSession.unclaimed.map((m: { id: string }) => m.id)).toEqual([store1.data?.store.id]);

    const { value } = await live.next((v) => v.notifications.kind === 'SESSION_AUDIT');
    expect(value.notifications).toMatchObject({
      kind: 'SESSION_AUDIT',
      sessionId: s.id,
      message: 'Session ending. What do you refuse to lose?',
      payload: { unclaimedIds: [store1.data?.store.id] },
    });
    const all = (await t.ok<{ notifications: any[] }>(POLL, { i })).notifications;
    expect(all.map((n) => n.id)).toEqual([value.notifications.id]);
    expect((await t.ok<{ notifications: any[] }>(POLL, { i, after: value.notifications.id })).notifications).toEqual(
      [],
    );

    // A client that was away replays what it missed when it subscribes with `after`.
    const late = wsClient(t, i);
    cleanups.push(async () => late.dispose());
    const replay = subscribe<{ notifications: any }>(late, NOTIFY, { i, after: '' });
    expect((await replay.next()).value.notifications.id).toBe(value.notifications.id);

    // Another instance may not listen in.
    const spy = wsClient(t, `spy-${prefix}`);
    cleanups.push(async () => spy.dispose());
    const refused = subscribe(spy, NOTIFY, { i });
    await eventually(async () => (refused.errors.length > 0 ? true : undefined), 5000);
    expect(JSON.stringify(refused.errors)).toContain('CORTEX.FOREIGN_INSTANCE');
  });
});

describe('consolidation', () => {
  it(
    'consolidates strong THEMATIC near-duplicates in a quiet store, keeps the ' + 'originals, and does it once',
    async () => {
      const { t, store } = await backgroundApp({ TOTAL_RECALL_CONSOLIDATION_MS: '400', TOTAL_RECALL_QUIET_MS: '600' });
      const remember = async (content: string) =>
        (
          await t.ok<{ store: { id: string } }>('mutation ($in: StoreInput!) { store(input: $in) { id } }', {
            in: { store, content },
          })
        ).store.id;
      const a = await remember('The deploy script needs the staging key before it runs.');
      const b = await remember('Before running, the deploy script needs the staging key.');
      const c = await remember('Ana likes her coffee black.');
      await t.app.bus.idle();
      // Synapse's THEMATIC measure links the near-duplicates (mechanically, by text overlap) and not the third.
      // (Only among these three: on a slow machine the consolidated memory may already exist, linked to both.)
      const thematic = await t.cypher<{ x: string; y: string; strength: number; origin: string }>(
        `MATCH (x:Memory {store: $store})-[r:THEMATIC]->(y:Memory)
       WHERE x.id IN $ids AND y.id IN $ids
       RETURN x.id AS x, y.id AS y, r.strength AS strength, r.origin AS origin`,
        { store, ids: [a, b, c] },
      );
      expect(thematic.map((r) => [r.x, r.y].sort())).toEqual([[a, b].sort()]);
      expect(thematic[0]).toMatchObject({ origin: 'MECHANICAL' });

      const consolidatedOf = async () =>
        t.cypher<{ id: string; from: string[] }>(
          'MATCH (n:Memory {store: $store})-[:CONSOLIDATED_FROM]->(o:Memory) WITH n, collect(o.id) AS from ' +
            'RETURN n.id AS id, from',
          { store },
        );
      const [made] = await eventually(async () => {
        const rows = await consolidatedOf();
        return rows.length > 0 ? rows : undefined;
      }, 20_000);
      expect([...(made?.from ?? [])].sort()).toEqual([a, b].sort());
      const originals = await t.cypher<{ n: number }>(
        'MATCH (m:Memory) WHERE m.id IN [$a, $b, $c] RETURN count(m) AS n',
        { a, b, c },
      );
      expect(originals[0]?.n).toBe(3);
      // Later runs find nothing left to consolidate.
      const runs = async () =>
        (await t.ok<{ health: { queues: any[] } }>(QUEUES)).health.queues.find((q) => q.name === 'consolidation')
          .lastRun ?? undefined;
      // On a busy machine the run that consolidated may be the first, still finishing: no last run yet.
      // Two whole runs after the one seen first (a last run is recorded when it has finished).
      const first = await eventually(runs, 10_000);
      const second = await eventually(
        async () => ((await runs()).jobId !== first.jobId ? await runs() : undefined),
        10_000,
      );
      const third = await eventually(
        async () => ((await runs()).jobId !== second.jobId ? await runs() : undefined),
        10_000,
      );
      expect([second.ok, third.ok]).toEqual([true, true]);
      expect(await consolidatedOf()).toHaveLength(1);
    },
  );
});
