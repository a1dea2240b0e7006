/**
 * The Embedder port and its implementation on a worker thread. A missing or
 * broken model is a state, not a crash: the service keeps running on lexical
 * recall, `status()` says why, one log line says so, and the files are looked
 * for again until they appear (then listeners hear `ready` and backfill).
 */
import type { Worker } from 'node:worker_threads';
import { tsWorker } from '../threads/index.js';
import { MODEL_NAME, missingModelFiles } from './onnx-model.js';
import type { FromWorker, ToWorker, WorkerInit } from './embed-worker.js';
import type { Role } from './onnx-model.js';
import { EmbedScheduler, type ModelRunner } from './scheduler.js';
import { NO_REQUESTS, type RequestLoad } from '../../domain/index.js';

export type EmbedderStatus =
  | { readonly state: 'ready'; readonly model: string; readonly dimensions: number }
  | { readonly state: 'loading' }
  | { readonly state: 'missing'; readonly reason: string }
  | { readonly state: 'disabled' };

export interface Embedder {
  /** The model's name, recorded with every vector it computes. */
  readonly model: string;
  /**
   * Unit vectors, one per text, in order. Rejects unless status() is ready.
   * Texts are memories (`passage`, the default) or a search's question
   * (`query`: embedded as one, and ahead of waiting passages).
   */
  embed(texts: readonly string[], role?: Role): Promise<Float32Array[]>;
  status(): EmbedderStatus;
  /** Called on every change of state (ready after missing, missing after a crash, …). */
  onChange(listener: (status: EmbedderStatus) => void): void;
  close(): Promise<void>;
}

/** What `health` shows: "ready", "loading", "disabled" or "missing: <reason>". */
export function describeEmbedder(status: EmbedderStatus): string {
  switch (status.state) {
    case 'ready':
      return 'ready';
    case 'loading':
      return 'loading';
    case 'disabled':
      return 'disabled';
    case 'missing':
      return `missing: ${status.reason}`;
    default: {
      const never: never = status;
      throw new Error(`unknown embedder state ${JSON.stringify(never)}`);
    }
  }
}

export class EmbeddingUnavailableError extends Error {
  constructor(status: EmbedderStatus) {
    super(`embedding model not available (${describeEmbedder(status)})`);
    this.name = 'EmbeddingUnavailableError';
  }
}

/** Embeddings switched off by configuration. */
export class DisabledEmbedder implements Embedder {
  readonly model = MODEL_NAME;
  async embed(): Promise<Float32Array[]> {
    throw new EmbeddingUnavailableError(this.status());
  }
  status(): EmbedderStatus {
    return { state: 'disabled' };
  }
  onChange(): void {}
  async close(): Promise<void> {}
}

export interface ThreadedEmbedderOptions {
  readonly dir: string;
  /** The dimension the store expects (config.embeddingDimensions). */
  readonly dimensions: number;
  /** CPU threads of one inference (onnxruntime's intra-op pool) in each model thread. */
  readonly threads?: number;
  /** Worker threads that each hold the model (default 1). */
  readonly workers?: number;
  /** Memories a model thread is sent at once (each still runs alone in the model: onnx-model.ts). */
  readonly subBatch?: number;
  /** The requests the process serves: while they run, memories are embedded on one model thread at most. */
  readonly load?: RequestLoad;
  /** Share of the time memories may take while requests run (scheduler.ts; default 1). */
  readonly busyShare?: number;
  /** Memories a model thread is sent at once while requests run (scheduler.ts; default subBatch). */
  readonly busySubBatch?: number;
  /** How often to look again for a missing model (ms). */
  readonly retryMs?: number;
  /** Where its lines go (the app's logger). */
  readonly log: (line: string) => void;
}

const WORKER_URL = new URL('./embed-worker.ts', import.meta.url);
const FETCH_HINT = 'fetch it with `node scripts/services/model.mjs` (npm start and npm test do)';

export class ThreadedEmbedder implements Embedder {
  readonly model = MODEL_NAME;
  private state: EmbedderStatus = { state: 'loading' };
  private pool: { readonly workers: readonly Worker[]; readonly scheduler: EmbedScheduler } | null = null;
  private readonly pending = new Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;
  private toldMissing = false;
  private loading: Promise<EmbedderStatus> | null = null;
  private started = false;
  private attempts = 0;
  private readonly listeners: ((status: EmbedderStatus) => void)[] = [];
  private readonly log: (line: string) => void;

  constructor(private readonly options: ThreadedEmbedderOptions) {
    this.log = options.log;
  }

  /**
   * Starts loading (once; later calls wait for the attempt under way) and
   * resolves with the state reached. Never rejects.
   */
  start(): Promise<EmbedderStatus> {
    if (!this.started) {
      this.started = true;
      this.attempt();
    }
    return this.loading ?? Promise.resolve(this.state);
  }

  /** How many times the files have been looked for and loaded (tests wait on retries with it). */
  get loadAttempts(): number {
    return this.attempts;
  }

  private attempt(): void {
    this.attempts++;
    const loading = this.load().finally(() => {
      if (this.loading === loading) this.loading = null;
    });
    this.loading = loading;
  }

  status(): EmbedderStatus {
    return this.state;
  }

  onChange(listener: (status: EmbedderStatus) => void): void {
    this.listeners.push(listener);
  }

  async embed(texts: readonly string[], role: Role = 'passage'): Promise<Float32Array[]> {
    const pool = this.pool;
    if (this.state.state !== 'ready' || !pool) throw new EmbeddingUnavailableError(this.state);
    return pool.scheduler.embed(texts, role);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    await this.loading?.catch(() => undefined);
    const pool = this.pool;
    this.pool = null;
    this.failPending(new Error('the embedder was closed'), pool);
    if (pool) await Promise.all(pool.workers.map((w) => w.terminate()));
  }

  private async load(): Promise<EmbedderStatus> {
    if (this.closed || this.pool) return this.state;
    const missing = missingModelFiles(this.options.dir);
    if (missing.length > 0)
      return this.setMissing(`no model files (${missing.join(', ')}) in ${this.options.dir}; ${FETCH_HINT}`);
    const count = Math.max(1, this.options.workers ?? 1);
    const spawned = await Promise.allSettled(Array.from({ length: count }, () => this.spawn()));
    const workers = spawned.flatMap((s) => (s.status === 'fulfilled' ? [s.value.worker] : []));
    const failed = spawned.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed || this.closed) {
      await Promise.all(workers.map((w) => w.terminate()));
      return failed ? this.setMissing(`the model failed to load: ${(failed.reason as Error).message}`) : this.state;
    }
    const dimensions = (spawned[0] as PromiseFulfilledResult<{ dimensions: number }>).value.dimensions;
    if (dimensions !== this.options.dimensions) {
      await Promise.all(workers.map((w) => w.terminate()));
      return this.setMissing(
        `the model gives ${dimensions} dimensions but TOTAL_RECALL_EMBEDDING_DIMENSIONS is ${this.options.dimensions}`,
        false,
      );
    }
    const runners = workers.map((w) => this.runnerOn(w));
    const scheduler = new EmbedScheduler(runners, {
      subBatch: this.options.subBatch ?? 16,
      load: this.options.load ?? NO_REQUESTS,
      busyShare: this.options.busyShare,
      busySubBatch: this.options.busySubBatch,
    });
    this.pool = { workers, scheduler };
    const wasMissing = this.toldMissing;
    this.toldMissing = false;
    if (wasMissing) this.log(`embeddings: ${MODEL_NAME} is ready now; embedding what was stored meanwhile`);
    return this.setState({ state: 'ready', model: MODEL_NAME, dimensions });
  }

  /** One batch at a time on `worker`, answered by id. */
  private runnerOn(worker: Worker): ModelRunner {
    return {
      run: (texts, role) => {
        const id = this.nextId++;
        return new Promise((resolve, reject) => {
          this.pending.set(id, { resolve, reject });
          worker.postMessage({ type: 'embed', id, texts, role } satisfies ToWorker);
        });
      },
    };
  }

  private spawn(): Promise<{ worker: Worker; dimensions: number }> {
    const init: WorkerInit = {
      dir: this.options.dir,
      threads: this.options.threads ?? 1,
    };
    const worker = tsWorker(WORKER_URL, { workerData: init });
    worker.unref();
    return new Promise((resolve, reject) => {
      let settled = false;
      worker.on('message', (message: FromWorker) => {
        switch (message.type) {
          case 'ready':
            settled = true;
            resolve({ worker, dimensions: message.dimensions });
            break;
          case 'failed':
            settled = true;
            void worker.terminate();
            reject(new Error(message.error));
            break;
          case 'vectors':
            this.pending.get(message.id)?.resolve(message.vectors);
            this.pending.delete(message.id);
            break;
          case 'error':
            this.pending.get(message.id)?.reject(new Error(message.error));
            this.pending.delete(message.id);
            break;
          default: {
            const never: never = message;
            throw new Error(`unknown message from the model worker: ${JSON.stringify(never)}`);
          }
        }
      });
      worker.on('error', (error) => {
        if (!settled) {
          settled = true;
          reject(error);
        } else this.lost(worker, `the model worker failed: ${error.message}`);
      });
      worker.on('exit', (code) => {
        if (!settled) {
          settled = true;
          reject(new Error(`the model worker exited with code ${code} while loading`));
        } else this.lost(worker, `the model worker exited with code ${code}`);
      });
    });
  }

  /** A model thread died: stop the others, fail what waits, say so, and load again later. */
  private lost(worker: Worker, reason: string): void {
    const pool = this.pool;
    if (!pool?.workers.includes(worker) || this.closed) return;
    this.pool = null;
    this.failPending(new Error(reason), pool);
    for (const other of pool.workers) if (other !== worker) void other.terminate();
    this.setMissing(reason);
  }

  private failPending(error: Error, pool: { readonly scheduler: EmbedScheduler } | null): void {
    pool?.scheduler.failWaiting(error);
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }

  private setMissing(reason: string, retry = true): EmbedderStatus {
    if (!this.toldMissing) {
      this.log(`embeddings: model missing (${reason}); recall is lexical only until it is there`);
      this.toldMissing = true;
    }
    if (retry && !this.closed) {
      this.retry = setTimeout(() => {
        this.retry = null;
        this.attempt();
      }, this.options.retryMs ?? 60_000);
      this.retry.unref();
    }
    return this.setState({ state: 'missing', reason });
  }

  private setState(next: EmbedderStatus): EmbedderStatus {
    const changed = JSON.stringify(next) !== JSON.stringify(this.state);
    this.state = next;
    if (changed) {
      for (const listener of this.listeners) {
        try {
          listener(next);
        } catch (error) {
          this.log(`embeddings: a status listener failed: ${(error as Error).message}`);
        }
      }
    }
    return next;
  }
}
