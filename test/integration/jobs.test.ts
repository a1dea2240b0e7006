/**
 * The BullMQ job port on the real Redis: a failing job is retried with
 * exponential backoff until it succeeds, and a timer added twice under one
 * deterministic id is one job (so a replayed ModeChanged or SessionEnded
 * schedules nothing twice).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { BullJobs } from '../../src/adapters/bullmq/index.js';
import type { JobRun } from '../../src/contexts/subconscious/index.js';
import { dropQueues, eventually, queuePrefix } from '../background.js';
import { loadConfig } from '../../src/config.js';

const redisUrl = loadConfig().redisUrl;
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean().catch((error) => console.error(error));
});

function jobs(backoffMs: number): BullJobs {
  const prefix = queuePrefix();
  const port = new BullJobs({ redisUrl, prefix, attempts: 4, backoffMs, lockMs: 5_000, stalledIntervalMs: 5_000 });
  cleanups.push(async () => {
    await port.close();
    await dropQueues(prefix, redisUrl);
  });
  return port;
}

const audit = { sessionId: 's-1', instanceId: 'i-1' };

/** Resolves once the job is completed (a terminal state: it runs no more), failing on 'failed'. */
async function completed(port: BullJobs, id: string): Promise<void> {
  await eventually(
    async () => {
      const state = await (await port.queue('session-audit').getJob(id))?.getState();
      if (state === 'failed') throw new Error(`job ${id} failed`);
      return state === 'completed' ? true : undefined;
    },
    30_000,
    50,
  );
}

describe('BullMQ jobs', () => {
  it('retries a failing job with exponential backoff until it succeeds', async () => {
    const base = 400;
    const port = jobs(base);
    const runs: { attempt: number; startedAt: number; failedAt: number | null }[] = [];
    await port.work(async (run: JobRun) => {
      const entry = { attempt: run.attempt, startedAt: Date.now(), failedAt: null as number | null };
      runs.push(entry);
      if (run.attempt < 4) {
        entry.failedAt = Date.now();
        throw new Error(`attempt ${run.attempt} fails`);
      }
      return { ok: true };
    });
    await port.add('session-audit', 'audit-retry', audit, 0);
    await completed(port, 'audit-retry');
    // Completed is terminal: these are all the runs there will be.
    expect(runs.map((r) => r.attempt)).toEqual([1, 2, 3, 4]);
    // Each wait (from a failure to the next attempt) is at least its backoff,
    // and less than the next one: 400, 800 then 1600 ms. A fixed or a linear
    // backoff (400, 800, 1200) falls outside these bands.
    const waits = runs.slice(1).map((r, i) => r.startedAt - (runs[i]!.failedAt as number));
    for (const [i, wait] of waits.entries()) {
      const backoff = base * 2 ** i;
      expect(wait, `wait before attempt ${i + 2}: ${waits.join(', ')} ms`).toBeGreaterThanOrEqual(backoff - 20);
      expect(wait, `wait before attempt ${i + 2}: ${waits.join(', ')} ms`).toBeLessThan(2 * backoff);
    }
    const status = (await port.status()).find((q) => q.name === 'session-audit');
    expect(status).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 0, completed: 1 });
    expect(status?.lastRun).toMatchObject({ jobId: 'audit-retry', ok: true });
  });

  it('keeps one job for one id: a timer added twice runs once', async () => {
    const port = jobs(100);
    const runs: string[] = [];
    await port.add('session-audit', 'audit-once', audit, 300);
    await port.add('session-audit', 'audit-once', audit, 300);
    await port.add('session-audit', 'audit-other', { ...audit, sessionId: 's-2' }, 300);
    expect((await port.status()).find((q) => q.name === 'session-audit')).toMatchObject({ waiting: 0, delayed: 2 });
    await port.work(async (run: JobRun) => void runs.push(run.id));
    await completed(port, 'audit-once');
    await completed(port, 'audit-other');
    // Both jobs are in their terminal state and nothing else waits: every run has happened.
    expect((await port.status()).find((q) => q.name === 'session-audit')).toMatchObject({
      waiting: 0,
      active: 0,
      delayed: 0,
      completed: 2,
    });
    expect(runs.sort()).toEqual(['audit-once', 'audit-other']);
  });

  it('runs a timer that failed for good again when added again (the session sweep repairs an audit)', async () => {
    const port = jobs(10);
    let failing = true;
    await port.work(async () => {
      if (failing) throw new Error('the audit fails');
      return { ok: true };
    });
    await port.add('session-audit', 'audit-repair', audit, 0);
    await eventually(
      async () =>
        (await (await port.queue('session-audit').getJob('audit-repair'))?.getState()) === 'failed' ? true : undefined,
      30_000,
      50,
    );
    failing = false;
    await port.add('session-audit', 'audit-repair', audit, 0);
    await completed(port, 'audit-repair');
  });

  it("keeps a scheduled job's data for its retry only: the scheduler's next job starts without it", async () => {
    const port = jobs(50);
    const runs: { id: string; attempt: number; data: unknown }[] = [];
    await port.work(async (run: JobRun) => {
      if (run.kind !== 'decay-sweep') return null;
      runs.push({ id: run.id, attempt: run.attempt, data: run.data });
      if (runs.length === 1) {
        await run.keepData({ now: 1234 });
        throw new Error('the first attempt fails after choosing its moment');
      }
      return null;
    });
    await port.every('decay-sweep', 700);
    await eventually(async () => (new Set(runs.map((r) => r.id)).size >= 2 ? true : undefined), 30_000, 50);
    const [first, retry, next] = runs;
    expect([first?.attempt, first?.data]).toEqual([1, {}]);
    expect(retry).toEqual({ id: first?.id, attempt: 2, data: { now: 1234 } });
    expect(next?.id).not.toBe(first?.id);
    expect(next?.data).toEqual({});
  });
});
