/**
 * The job queue port on BullMQ: one queue per job kind (so depths read per
 * kind), job schedulers for the periodic sweeps, deterministic job ids for the
 * timers, retries with exponential backoff, and stalled-job recovery (a job
 * whose worker died is taken up by another once its lock expires). Every
 * queue lives under the configured prefix, so apps and tests do not collide.
 */
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  JOB_KINDS,
  SCHEDULED_KINDS,
  type DrainReport,
  type JobDataOf,
  type JobKind,
  type JobPort,
  type JobRun,
  type LastRun,
  type QueueStatus,
  type ScheduledKind,
  type TimerKind,
} from '../../contexts/subconscious/index.js';
import { redisConnection } from '../redis.js';
import { workerName } from './worker-name.js';

export interface BullJobsOptions {
  readonly redisUrl: string;
  readonly prefix: string;
  readonly attempts: number;
  readonly backoffMs: number;
  readonly lockMs: number;
  readonly stalledIntervalMs: number;
  readonly log?: (line: string) => void;
}

/** Timers fire per session, so several may run side by side; sweeps run one at a time. */
const CONCURRENCY: Record<JobKind, number> = {
  'decay-sweep': 1,
  consolidation: 1,
  'session-sweep': 1,
  reconcile: 1,
  'cold-storage': 1,
  'cold-storage-checkpoint': 1,
  'break-check': 4,
  'session-audit': 4,
};
const KEEP_COMPLETED = { age: 24 * 3600, count: 1000 };
const KEEP_FAILED = { age: 7 * 24 * 3600, count: 1000 };

export class BullJobs implements JobPort {
  private connection: Redis | null = null;
  private readonly queues = new Map<JobKind, Queue>();
  private readonly workers: Worker[] = [];
  private readonly runListeners: ((kind: JobKind, run: LastRun) => void)[] = [];
  private closed = false;

  constructor(private readonly options: BullJobsOptions) {}

  /** Where each kind's last run is kept, readable from any process. */
  get lastRunsKey(): string {
    return `${this.options.prefix}:subconscious:last-runs`;
  }

  private redis(): Redis {
    if (!this.connection) {
      this.connection = redisConnection(this.options.redisUrl);
      this.connection.on('error', (error) => this.options.log?.(`[bullmq] redis: ${error.message}`));
    }
    return this.connection;
  }

  private jobOptions() {
    return {
      attempts: this.options.attempts,
      backoff: { type: 'exponential' as const, delay: this.options.backoffMs },
      removeOnComplete: KEEP_COMPLETED,
      removeOnFail: KEEP_FAILED,
    };
  }

  queue(kind: JobKind): Queue {
    let queue = this.queues.get(kind);
    if (!queue) {
      if (this.closed) throw new Error('the job queues are closed');
      queue = new Queue(kind, {
        connection: this.redis(),
        prefix: this.options.prefix,
        defaultJobOptions: this.jobOptions(),
      });
      queue.on('error', (error) => this.options.log?.(`[bullmq] queue ${kind}: ${error.message}`));
      this.queues.set(kind, queue);
    }
    return queue;
  }

  async every(kind: ScheduledKind, everyMs: number): Promise<void> {
    // The scheduler id is the kind: any process may upsert it, the result is one scheduler.
    await this.queue(kind).upsertJobScheduler(
      kind,
      { every: everyMs },
      { name: kind, data: {}, opts: this.jobOptions() },
    );
  }

  async add<K extends TimerKind>(kind: K, id: string, data: JobDataOf<K>, delayMs: number): Promise<void> {
    const queue = this.queue(kind);
    // BullMQ ignores an add under an id it still keeps, a failed job's too (KEEP_FAILED, a week): that one has
    // given up, so it goes and the add (a repair by the session sweep, say) runs the work again.
    if (await (await queue.getJob(id))?.isFailed()) await queue.remove(id);
    await queue.add(kind, data, { jobId: id, delay: Math.max(0, Math.round(delayMs)) });
  }

  async work(run: (job: JobRun) => Promise<unknown>): Promise<void> {
    for (const kind of JOB_KINDS) {
      const worker = new Worker(kind, (job: Job) => this.process(kind, job, run), {
        connection: this.redis(),
        prefix: this.options.prefix,
        name: workerName(),
        concurrency: CONCURRENCY[kind],
        lockDuration: this.options.lockMs,
        stalledInterval: this.options.stalledIntervalMs,
        // A job whose worker died twice still gets its retries rather than failing outright.
        maxStalledCount: 2,
      });
      worker.on('error', (error) => this.options.log?.(`[bullmq] worker ${kind}: ${error.message}`));
      worker.on('failed', (job, error) =>
        this.options.log?.(
          `[bullmq] ${kind} ${job?.id ?? '?'} failed (attempt ${job?.attemptsMade ?? '?'}): ${error.message}`,
        ),
      );
      this.workers.push(worker);
    }
    await Promise.all(this.workers.map((w) => w.waitUntilReady()));
  }

  /** Sees every run this process makes (the soak benchmark measures job lag with it). */
  onRun(listener: (kind: JobKind, run: LastRun) => void): void {
    this.runListeners.push(listener);
  }

  private async process(kind: JobKind, job: Job, run: (job: JobRun) => Promise<unknown>): Promise<unknown> {
    const startedAt = Date.now();
    const dueAt = job.timestamp + (job.opts.delay ?? 0);
    const record = async (ok: boolean, result: unknown, error: string | null) => {
      const last: LastRun = {
        jobId: String(job.id),
        at: Date.now(),
        ok,
        durationMs: Date.now() - startedAt,
        lagMs: Math.max(0, startedAt - dueAt),
        error,
        result,
      };
      for (const listener of this.runListeners) listener(kind, last);
      await this.redis()
        .hset(this.lastRunsKey, kind, JSON.stringify(last))
        .catch(() => undefined);
    };
    try {
      const result = await run({
        kind,
        id: String(job.id),
        data: job.data,
        attempt: job.attemptsMade + 1,
        dueAt,
        // A scheduler's next job was made when this one was fetched, from its template: it starts without this.
        keepData: (data: unknown) => job.updateData(data),
      } as JobRun);
      await record(true, result ?? null, null);
      return result;
    } catch (error) {
      await record(false, null, (error as Error).message);
      throw error;
    }
  }

  async status(): Promise<QueueStatus[]> {
    if (this.closed) return [];
    const raw = await this.redis().hgetall(this.lastRunsKey);
    return Promise.all(
      JOB_KINDS.map(async (kind) => {
        const queue = this.queue(kind);
        const counts = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed', 'completed');
        const scheduler = (SCHEDULED_KINDS as readonly string[]).includes(kind)
          ? await queue.getJobScheduler(kind)
          : undefined;
        const last = raw[kind];
        return {
          name: kind,
          waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
          active: counts.active ?? 0,
          delayed: counts.delayed ?? 0,
          failed: counts.failed ?? 0,
          completed: counts.completed ?? 0,
          everyMs: scheduler?.every ?? null,
          lastRun: last ? (JSON.parse(last) as LastRun) : null,
        };
      }),
    );
  }

  async drain(timeoutMs: number): Promise<DrainReport> {
    const worked = this.workers.length > 0;
    let ran = 0;
    this.onRun(() => ran++);
    const pending = async () => {
      const all = await this.status();
      return {
        due: all.reduce((n, q) => n + q.waiting + q.active, 0),
        delayed: all.reduce((n, q) => n + q.delayed, 0),
      };
    };
    const deadline = Date.now() + timeoutMs;
    let now = await pending();
    while (worked && now.due > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      now = await pending();
    }
    // close() waits for the jobs these workers are running to finish.
    await Promise.all(this.workers.splice(0).map((w) => w.close()));
    now = await pending();
    return { worked, ran, left: now.due, delayed: now.delayed, timedOut: worked && Date.now() >= deadline };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.workers.splice(0).map((w) => w.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
    if (this.connection) await this.connection.quit().catch(() => this.connection?.disconnect());
    this.connection = null;
  }
}
