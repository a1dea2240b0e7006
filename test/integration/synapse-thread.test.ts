/**
 * The linking thread on the real Neo4j: it links what it is handed and
 * reports each written batch once (a tick's memories as one batch), runs
 * nicer than the service's thread, starts ahead of the first memory on
 * warmUp, fails what it held when it dies and starts again, passes a
 * failed statement back to the caller, and paces itself while the serving
 * thread's requests run. Memories are stored with mechanical
 * linking off, then handed to a LinkingThread directly.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { eventually } from '../background.js';
import { LINKING_NICE, type CreatedLink, type LinkSource } from '../../src/contexts/synapse/index.js';
import { LinkingThread } from '../../src/adapters/linking-thread/testing.js';
import { RequestActivity } from '../../src/adapters/request-activity.js';

let t: TestApp;
const stores: string[] = [];
const T0 = Date.parse('2026-04-01T09:00:00Z');

beforeAll(async () => {
  t = await startTestApp({}, { ...process.env, TOTAL_RECALL_SYNAPSE_MECHANICAL: 'off' });
});
afterAll(async () => {
  for (const s of stores) await t.dropStore(s);
  await t.stop();
});

/** Stores a session of `n` memories a minute apart (no links: linking is off in this app). */
async function session(n: number): Promise<LinkSource[]> {
  const store = randomStore('synapse-thread');
  stores.push(store);
  const inputs = Array.from({ length: n }, (_, i) => ({
    store,
    content: `walk number ${i} by the river`,
    sessionId: `s-${store}`,
    occurredAt: T0 + i * 60_000,
  }));
  const stored = await t.app.ports.memory.store(inputs, { instanceId: null, sessionId: null });
  return stored.map((s) => s.memory);
}

const init = () => ({ neo4j: t.config.neo4j, settings: t.config.synapse, nice: LINKING_NICE, activity: null });

async function temporalPairs(store: string): Promise<number> {
  const rows = await t.cypher<{ n: number }>(
    'MATCH (:Memory {store: $store})-[r:TEMPORAL]->(:Memory) RETURN count(r) AS n',
    { store },
  );
  return rows[0]?.n ?? 0;
}

/** Nice values of this process's threads (Linux). */
function niceValues(): number[] {
  return readdirSync('/proc/self/task').map((task) =>
    Number(readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1]?.split(' ')[16]),
  );
}

describe('the linking thread', () => {
  it(
    'links what it is handed, reports each written batch once with its tags, and runs ' + 'nicer than the service',
    async () => {
      const [a, b, c] = await session(3);
      const reports: { store: string; links: CreatedLink[]; tags: string[] }[] = [];
      const thread = new LinkingThread<string>(init(), (store, links, tags) => reports.push({ store, links, tags }));
      try {
        await Promise.all([a!, b!, c!].map((m, i) => thread.link(m, T0 + 10 * 60_000, `tag-${i}`)));
        await thread.idle(a!.store);
        expect(reports.flatMap((r) => r.tags).sort()).toEqual(['tag-0', 'tag-1', 'tag-2']);
        expect(reports.every((r) => r.store === a!.store)).toBe(true);
        const temporal = reports.flatMap((r) => r.links).filter((l) => l.type === 'TEMPORAL');
        expect(temporal).toHaveLength(3); // three memories of one session: every pair
        expect(await temporalPairs(a!.store)).toBe(3);
        expect(niceValues()).toContain(LINKING_NICE);
      } finally {
        await thread.close();
      }
      expect(niceValues()).not.toContain(LINKING_NICE); // closed: the thread is gone
    },
  );

  it('links memories handed in within one tick (a storeMany) as one batch, reported once', async () => {
    const memories = await session(12);
    const reports: number[][] = [];
    const thread = new LinkingThread<number>(init(), (_store, _links, tags) => reports.push(tags));
    try {
      await thread.link(memories[0]!, T0, -1); // the thread is up and idle
      reports.length = 0;
      const linked = memories.slice(1).map((m, i) => {
        // Synchronous work between memories, as a storeMany's handlers do: the thread would see the first alone.
        for (const start = performance.now(); performance.now() - start < 5; );
        return thread.link(m, T0 + 20 * 60_000, i);
      });
      await Promise.all(linked);
      expect(reports).toEqual([memories.slice(1).map((_, i) => i)]);
    } finally {
      await thread.close();
    }
  });

  it('starts the thread on warmUp, before any memory, and links through it', async () => {
    const [a, b] = await session(2);
    const thread = new LinkingThread<null>(init(), () => undefined);
    try {
      expect(niceValues()).not.toContain(LINKING_NICE);
      thread.warmUp();
      // up, and niced, with nothing handed in yet
      await eventually(async () => (niceValues().includes(LINKING_NICE) ? true : undefined));
      thread.warmUp(); // a second call starts no second thread
      expect(niceValues().filter((n) => n === LINKING_NICE)).toHaveLength(1);
      await Promise.all([thread.link(a!, T0, null), thread.link(b!, T0, null)]);
      expect(await temporalPairs(a!.store)).toBe(1);
    } finally {
      await thread.close();
    }
    expect(niceValues()).not.toContain(LINKING_NICE);
  });

  it('fails what a dying thread held, and starts a new thread for the next memory', async () => {
    const [a, b] = await session(2);
    const thread = new LinkingThread<null>(init(), () => undefined);
    try {
      const held = thread.link(a!, T0, null);
      await (thread as unknown as { worker: Worker }).worker.terminate();
      await expect(held).rejects.toThrow(/linking thread stopped/);
      await thread.link(b!, T0, null);
      await thread.link(a!, T0, null);
      expect(await temporalPairs(a!.store)).toBe(1);
    } finally {
      await thread.close();
    }
  });

  it('links on the thread that stores when the linking thread is off', async () => {
    const onCaller = await startTestApp({}, { ...process.env, TOTAL_RECALL_SYNAPSE_THREAD: 'off' });
    const store = randomStore('synapse-thread');
    stores.push(store);
    try {
      for (let i = 0; i < 2; i++) {
        await onCaller.app.ports.memory.store(
          [{ store, content: `evening swim ${i}`, sessionId: `s-${store}`, occurredAt: T0 + i * 60_000 }],
          { instanceId: null, sessionId: null },
        );
      }
      await onCaller.app.bus.idle();
      expect(await temporalPairs(store)).toBe(1);
      expect(niceValues()).not.toContain(LINKING_NICE);
    } finally {
      await onCaller.stop();
    }
  });

  it('passes a failed statement back to the caller', async () => {
    const [a] = await session(1);
    const thread = new LinkingThread<null>(
      { ...init(), neo4j: { ...t.config.neo4j, database: 'no-such-database' } },
      () => undefined,
    );
    try {
      await expect(thread.link(a!, T0, null)).rejects.toThrow(/linking failed/);
    } finally {
      await thread.close();
    }
  });

  it('holds its next batch back while the serving thread has a request running, and goes on once it ends', async () => {
    // 150 memories in one tick: a batch of 100, then one of 50. At a share of 0.01 the second waits 99 times as long
    // as the first took (seconds), unless the request ends first.
    const memories = await session(150);
    const activity = new RequestActivity();
    const end = activity.begin();
    const reported: number[] = [];
    const thread = new LinkingThread<number>(
      { ...init(), settings: { ...t.config.synapse, busyShare: 0.01 }, activity: activity.shared },
      (_store, _links, tags) => reported.push(tags.length),
    );
    try {
      const linked = Promise.all(memories.map((m, i) => thread.link(m, T0 + 200 * 60_000, i)));
      await eventually(async () => (reported.length > 0 ? true : undefined));
      expect(reported).toEqual([100]);
      await new Promise((r) => setTimeout(r, 1_000));
      expect(reported).toEqual([100]);
      end();
      await linked;
      expect(reported).toEqual([100, 50]);
    } finally {
      end();
      await thread.close();
    }
  });
});
