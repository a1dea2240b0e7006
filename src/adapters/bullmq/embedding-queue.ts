/**
 * The `embeddings` BullMQ queue: memories get their vectors off the request
 * path. A store publishes MemoryStored; ids collect for a moment and go to
 * Redis as one `embed` job per batch; a worker (only while the model is ready)
 * embeds the texts and asks Hippocampus to attach the vectors. A `backfill`
 * job walks every memory without a vector, one page per job, each page
 * enqueueing the next, so new stores interleave with a long backfill.
 *
 * Idempotent: a job re-reads which memories still lack a vector, and
 * Hippocampus attaches a vector only where there is none (a client's own is
 * never replaced). A job that gives up marks its memories FAILED; the
 * reconciliation tries them again an hour later, as does the next backfill.
 */
import { createHash } from 'node:crypto';
import { Queue, Worker, type Job, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  gapBetweenRequests,
  type Bus,
  type ProgressBoard,
  type ProgressHandle,
  type RequestLoad,
} from '../../domain/index.js';
import type { Embedder, EmbedderStatus } from '../embeddings/index.js';
import { redisConnection } from '../redis.js';
import { workerName } from './worker-name.js';
import { EMBEDDING_JOB_RETRY } from '../../settings/server.js';

export const EMBEDDINGS_QUEUE = 'embeddings';

/** A memory's text to embed, and the memory before it that the text took as context (attached only while it exists). */
export interface TextToEmbed {
  readonly id: string;
  readonly text: string;
  readonly contextId: string | null;
}

/** What the queue needs from Hippocampus (which alone writes Memory nodes). */
export interface EmbeddingTarget {
  memoriesToEmbed(ids: readonly string[], model: string): Promise<readonly TextToEmbed[]>;
  pendingEmbeddings(
    after: string,
    limit: number,
    stores: readonly string[] | null,
    model: string,
  ): Promise<readonly { readonly id: string }[]>;
  attachEmbeddings(
    vectors: readonly { readonly id: string; readonly embedding: Float32Array; readonly contextId: string | null }[],
    model: string,
  ): Promise<readonly string[]>;
  failEmbeddings(ids: readonly string[], reason: string): Promise<readonly string[]>;
  /** Memories still PENDING that were stored before `before`, oldest first, then long FAILED (the reconciliation). */
  stalledEmbeddings(
    before: number,
    limit: number,
    stores: readonly string[] | null,
  ): Promise<readonly { readonly id: string }[]>;
}

export type EmbeddingJob =
  | { readonly kind: 'embed'; readonly ids: readonly string[] }
  | { readonly kind: 'backfill'; readonly run: string; readonly after: string };

export interface EmbeddingJobResult {
  readonly embedded: number;
}

export interface EmbeddingQueueOptions {
  readonly redisUrl: string;
  readonly embedder: Embedder;
  readonly target: EmbeddingTarget;
  /** Memories per job (and per backfill page). */
  readonly batchSize: number;
  /** The stores the backfill walks (null: every store); config.scopeStores. */
  readonly stores?: readonly string[] | null;
  /** BullMQ key prefix (tests use their own, so their jobs stay theirs). */
  readonly prefix?: string;
  /**
   * Run the worker (and the backfill) in this process once the model is ready.
   * False in an API-only process: it only enqueues, and worker processes embed.
   */
  readonly runWorker?: boolean;
  /** How long ids collect before they are enqueued (ms). */
  readonly lingerMs?: number;
  /** Where its lines go (the app's logger). */
  readonly log: (line: string) => void;
  /** Tries of one job, and the first delay between them (then doubling): TOTAL_RECALL_EMBEDDING_JOB_*. */
  readonly retry?: { readonly attempts: number; readonly backoffMs: number };
  /** The requests this process serves: a job's reads and writes start in a gap between them. */
  readonly load?: RequestLoad;
  /**
   * Vectors per write while requests run (default: the whole job in one): each piece starts in a gap of its own,
   * so a write of 64 vectors does not meet the next request whole.
   */
  readonly busyWriteBatch?: number;
  /** Where the backfill pages this process works report how many memories they embedded. */
  readonly progress?: ProgressBoard;
}

const jobDefaults = ({ attempts, backoffMs }: { attempts: number; backoffMs: number }): JobsOptions => ({
  attempts,
  backoff: { type: 'exponential', delay: backoffMs },
  removeOnComplete: { count: 100 },
  removeOnFail: { count: 1_000 },
});
/** Memories the reconciliation re-queues per run at most. */
const REQUEUE_PAGE = 1_000;
/** Job states in which a memory's embedding may still be on its way. */
const QUEUED_STATES = ['waiting', 'active', 'delayed', 'prioritized'] as const;
/** Backfill pages wait behind fresh stores (BullMQ runs unprioritised jobs first). */
const BACKFILL_PRIORITY = 10;

export class EmbeddingQueue {
  readonly queue: Queue<EmbeddingJob, EmbeddingJobResult>;
  private worker: Worker<EmbeddingJob, EmbeddingJobResult> | null = null;
  private readonly connections: Redis[] = [];
  private buffer: string[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly inflight = new Set<Promise<unknown>>();
  /** addBulk calls on their way to Redis (send never rejects). */
  private readonly sending = new Set<Promise<void>>();
  private closed = false;
  private closing: Promise<void> | null = null;
  private readonly prefix: string;
  private readonly log: (line: string) => void;

  constructor(private readonly options: EmbeddingQueueOptions) {
    this.prefix = options.prefix ?? 'total-recall';
    this.log = options.log;
    const connection = this.connection();
    this.queue = new Queue<EmbeddingJob, EmbeddingJobResult>(EMBEDDINGS_QUEUE, {
      connection,
      prefix: this.prefix,
      defaultJobOptions: jobDefaults(options.retry ?? EMBEDDING_JOB_RETRY),
    });
    this.queue.on('error', (error) => this.log(`embeddings queue: ${error.message}`));
    options.embedder.onChange((status) => this.track(this.onEmbedder(status)));
    if (options.embedder.status().state === 'ready') this.track(this.onEmbedder(options.embedder.status()));
  }

  /** New memories are embedded in the background (Subconscious runs background work). */
  subscribe(bus: Bus): this {
    bus.subscribe('subconscious', 'MemoryStored', async (event) => this.request([event.data.memory.id]));
    // Their vectors had the forgotten memory's content as context.
    bus.subscribe('subconscious', 'MemoryForgotten', async (event) => this.request(event.data.embeddedWith));
    return this;
  }

  /** Queues memories for embedding; they are sent as jobs of `batchSize` after a short linger. */
  request(ids: readonly string[]): void {
    if (this.closed || ids.length === 0) return;
    this.buffer.push(...ids);
    if (this.buffer.length >= this.options.batchSize) this.track(this.flush());
    else if (!this.timer) {
      this.timer = setTimeout(() => this.track(this.flush()), this.options.lingerMs ?? 20);
      this.timer.unref();
    }
  }

  /**
   * Sends what has collected to Redis, one job per batch, and resolves once
   * every send started before it (by the linger timer too) has reached Redis.
   */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const ids = [...new Set(this.buffer.splice(0))];
    const send = this.send(ids);
    this.sending.add(send);
    try {
      await Promise.all([...this.sending]);
    } finally {
      this.sending.delete(send);
    }
  }

  private async send(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const jobs = [];
    for (let i = 0; i < ids.length; i += this.options.batchSize) {
      jobs.push({
        name: 'embed',
        data: { kind: 'embed', ids: ids.slice(i, i + this.options.batchSize) } as EmbeddingJob,
      });
    }
    try {
      await this.queue.addBulk(jobs);
    } catch (error) {
      // The memories stay PENDING; the next backfill picks them up.
      this.log(
        `embeddings: could not enqueue ${ids.length} memories (${(error as Error).message}); the backfill will embed ` +
          `them`,
      );
    }
  }

  /** Starts a walk over every memory without a vector (one at a time across processes). */
  async backfill(): Promise<void> {
    const run = Date.now().toString(36);
    await this.queue.add(
      'backfill',
      { kind: 'backfill', run, after: '' },
      {
        priority: BACKFILL_PRIORITY,
        deduplication: { id: 'embeddings-backfill-start' },
        jobId: `backfill-${run}-start`,
      },
    );
  }

  /**
   * The reconciliation: memories stored before `before` that are still
   * PENDING, and older than every job still in the queue (jobs run in order,
   * so nothing queued can be theirs), lost their job: a process died before
   * sending it, or Redis lost it (its last second of AOF). They are queued
   * again (and memories FAILED over an hour before it, see stalledEmbeddings);
   * Neo4j is the source of truth. Only where this process embeds (the
   * model is ready), so a service without a model does not pile up jobs.
   * Returns how many were queued.
   */
  async requeueStalled(before: number): Promise<number> {
    if (this.closed || this.options.runWorker === false || this.options.embedder.status().state !== 'ready') return 0;
    const oldest = await this.oldestQueuedAt();
    const cutoff = oldest === null ? before : Math.min(before, oldest);
    const stalled = await this.options.target.stalledEmbeddings(cutoff, REQUEUE_PAGE, this.options.stores ?? null);
    if (stalled.length === 0) return 0;
    this.request(stalled.map((m) => m.id));
    await this.flush();
    this.log(`embeddings: queued ${stalled.length} memories again whose embedding job was lost or failed`);
    return stalled.length;
  }

  /** When the oldest job still waiting, running or retrying was added (null: none). */
  private async oldestQueuedAt(): Promise<number | null> {
    const oldest = await Promise.all(QUEUED_STATES.map((state) => this.queue.getJobs([state], 0, 0, true)));
    const times = oldest.flat().flatMap((job) => (job ? [job.timestamp] : []));
    return times.length > 0 ? Math.min(...times) : null;
  }

  /** Resolves when nothing is buffered, queued or running (tests and shutdown use it). */
  async idle(timeoutMs = 120_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      await Promise.allSettled([...this.inflight]);
      if (this.buffer.length > 0) {
        await this.flush();
        continue;
      }
      const counts = await this.queue.getJobCounts(
        'waiting',
        'active',
        'delayed',
        'prioritized',
        'waiting-children',
        'paused',
      );
      if (Object.values(counts).every((n) => n === 0) && this.inflight.size === 0) return;
      if (Date.now() > end)
        throw new Error(`embeddings queue still busy after ${timeoutMs} ms: ${JSON.stringify(counts)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async counts(): Promise<Record<string, number>> {
    return this.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed');
  }

  /** Flushes what was buffered (so it survives in Redis), lets the running job finish, and disconnects. */
  close(): Promise<void> {
    this.closing ??= this.shut();
    return this.closing;
  }

  private async shut(): Promise<void> {
    await this.flush();
    this.closed = true;
    await Promise.allSettled([...this.inflight]);
    await this.worker?.close();
    await this.queue.close();
    for (const c of this.connections) c.disconnect();
  }

  // ── worker ────────────────────────────────────────────────────────────────

  private async onEmbedder(status: EmbedderStatus): Promise<void> {
    if (this.closed || this.options.runWorker === false) return;
    if (status.state === 'ready') {
      if (!this.worker) {
        this.worker = new Worker<EmbeddingJob, EmbeddingJobResult>(EMBEDDINGS_QUEUE, (job) => this.process(job), {
          connection: this.connection(),
          prefix: this.prefix,
          name: workerName(),
          // Two jobs at a time: one reads or writes Neo4j while the other's texts are on the model thread.
          concurrency: 2,
        });
        this.worker.on('error', (error) => this.log(`embeddings worker: ${error.message}`));
        this.worker.on('failed', (job, error) => {
          if (job && job.attemptsMade >= (job.opts.attempts ?? 1))
            this.log(`embeddings: job ${job.id} (${job.data.kind}) failed for good: ${error.message}`);
        });
      } else if (this.worker.isPaused()) this.worker.resume();
      // Whatever was stored while the model was missing (or before embeddings existed).
      await this.backfill().catch((error: Error) =>
        this.log(`embeddings: could not start the backfill (${error.message})`),
      );
    } else if (this.worker && !this.worker.isPaused()) {
      await this.worker.pause(true);
    }
  }

  /** Backfill walks this process has worked pages of: run → memories embedded so far. */
  private readonly backfills = new Map<string, { handle: ProgressHandle; done: number }>();

  /** A backfill page's share of its walk (the pages this process worked; a walk may span workers). */
  private backfillPage(run: string, embedded: number, last: boolean): void {
    if (!this.options.progress) return;
    let walk = this.backfills.get(run);
    if (!walk) {
      walk = {
        handle: this.options.progress.start('backfill', this.options.stores?.join(',') ?? null, 'memories embedded'),
        done: 0,
      };
      this.backfills.set(run, walk);
    }
    walk.done += embedded;
    walk.handle.update(walk.done);
    if (last) {
      walk.handle.finish();
      this.backfills.delete(run);
    }
  }

  private async process(job: Job<EmbeddingJob, EmbeddingJobResult>): Promise<EmbeddingJobResult> {
    const data = job.data;
    switch (data.kind) {
      case 'embed':
        if (this.options.load) await gapBetweenRequests(this.options.load);
        return this.embed(await this.options.target.memoriesToEmbed(data.ids, this.options.embedder.model), job);
      case 'backfill': {
        const page = await this.options.target.pendingEmbeddings(
          data.after,
          this.options.batchSize,
          this.options.stores ?? null,
          this.options.embedder.model,
        );
        const last = page.at(-1);
        if (last && page.length === this.options.batchSize) {
          // The next page first: a page that fails still lets the walk go on.
          const next = createHash('sha1').update(last.id).digest('hex').slice(0, 20);
          await this.queue.add(
            'backfill',
            { kind: 'backfill', run: data.run, after: last.id },
            { priority: BACKFILL_PRIORITY, jobId: `backfill-${data.run}-${next}` },
          );
        }
        const result = await this.embed(
          await this.options.target.memoriesToEmbed(
            page.map((p) => p.id),
            this.options.embedder.model,
          ),
          job,
        );
        this.backfillPage(data.run, result.embedded, !(last && page.length === this.options.batchSize));
        return result;
      }
      default: {
        const never: never = data;
        throw new Error(`unknown embedding job ${JSON.stringify(never)}`);
      }
    }
  }

  private async embed(
    work: readonly TextToEmbed[],
    job: Job<EmbeddingJob, EmbeddingJobResult>,
  ): Promise<EmbeddingJobResult> {
    if (work.length === 0) return { embedded: 0 };
    let vectors: Float32Array[];
    try {
      vectors = await this.options.embedder.embed(work.map((w) => w.text));
    } catch (error) {
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
        await this.options.target.failEmbeddings(
          work.map((w) => w.id),
          (error as Error).message,
        );
      }
      throw error;
    }
    const rows = work.map((w, i) => ({ id: w.id, embedding: vectors[i] as Float32Array, contextId: w.contextId }));
    const { load, busyWriteBatch } = this.options;
    let embedded = 0;
    while (rows.length > 0) {
      // Busy is asked before each write: requests that start or stop meanwhile change the next piece.
      const piece = load?.busy() && busyWriteBatch ? busyWriteBatch : rows.length;
      if (load) await gapBetweenRequests(load);
      embedded += (await this.options.target.attachEmbeddings(rows.splice(0, piece), this.options.embedder.model))
        .length;
    }
    return { embedded };
  }

  private connection(): Redis {
    const connection = redisConnection(this.options.redisUrl);
    connection.on('error', () => undefined); // BullMQ reports; ioredis reconnects
    this.connections.push(connection);
    return connection;
  }

  private track(work: Promise<unknown>): void {
    const tracked = work
      .catch((error: Error) => this.log(`embeddings: ${error.message}`))
      .finally(() => this.inflight.delete(tracked));
    this.inflight.add(tracked);
  }
}
