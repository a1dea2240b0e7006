/**
 * The BullMQ job port on the real Redis: a failing job is retried with
 * exponential backoff until it succeeds, and a timer added twice under one
 * deterministic id is one job (so a replayed ModeChanged or SessionEnded
 * schedules nothing twice).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { BullJobs } from '../../src/adapters/bullmq/index.js';
import type { JobRun } from '../../src/contexts/subconscious/index.js';
import { dropQueues, eventually, queuePrefix, sleep } from '../background.js';
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

describe('BullMQ jobs', () => {
  it('retries a failing job with exponential backoff until it succeeds', async () => {
    const port = jobs(300);
    const attempts: { attempt: number; at: number }[] = [];
    await port.work(async (run: JobRun) => {
      attempts.push({ attempt: run.attempt, at: Date.now() });
      if (run.attempt < 3) throw new Error(`attempt ${run.attempt} fails`);
      return { ok: true };
    });
    await port.add('session-audit', 'audit-retry', audit, 0);
    await eventually(async () => (attempts.length >= 3 ? true : undefined), 20_000);
    await sleep(1_500); // nothing runs after the success
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    const [first, second, third] = attempts.map((a) => a.at) as [number, number, number];
    // Exponential: 300 ms before the second attempt, 600 ms before the third.
    expect(second - first).toBeGreaterThanOrEqual(300 - 20);
    expect(third - second).toBeGreaterThanOrEqual(600 - 20);
    const status = (await port.status()).find((q) => q.name === 'session-audit');
    expect(status).toMatchObject({ failed: 0, completed: 1 });
    expect(status?.lastRun).toMatchObject({ jobId: 'audit-retry', ok: true });
  });

  it('keeps one job for one id: a timer added twice runs once', async () => {
    const port = jobs(100);
    const runs: string[] = [];
    await port.add('session-audit', 'audit-once', audit, 300);
    await port.add('session-audit', 'audit-once', audit, 300);
    await port.add('session-audit', 'audit-other', { ...audit, sessionId: 's-2' }, 300);
    await port.work(async (run: JobRun) => void runs.push(run.id));
    await eventually(async () => (runs.length >= 2 ? true : undefined), 20_000);
    await sleep(1_000);
    expect(runs.sort()).toEqual(['audit-once', 'audit-other']);
  });
});
