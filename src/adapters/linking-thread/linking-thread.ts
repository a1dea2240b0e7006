/**
 * Synapse's mechanical linking (its Linking port) on its own worker thread
 * (linking-worker.ts), started by warmUp() or on the first stored memory.
 * Linking a memory costs about as
 * much JavaScript as storing it (decoding ~44 candidates, planning); on the
 * request thread that work delays the next store's answer. The thread is
 * held open (ref) only while memories wait to be linked, and a crashed thread
 * fails what it held and is started again on the next memory. Memories handed
 * in within one tick (a storeMany's) travel in one message, so the thread
 * links them as one batch, as it would in process.
 */
import type { Worker } from 'node:worker_threads';
import type { LinkSource, Linking, OnLinked } from '../../contexts/synapse/index.js';
import { tsWorker } from '../threads/index.js';
import type { FromLinkingThread, LinkingThreadInit, ToLink, ToLinkingThread } from './linking-worker.js';

const WORKER_URL = new URL('./linking-worker.ts', import.meta.url);
/** How long close() waits for the thread to close its driver before it is stopped. */
const CLOSE_MS = 5_000;

interface Waiting<T> {
  readonly store: string;
  readonly tag: T;
  readonly done: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export class LinkingThread<T> implements Linking<T> {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly waiting = new Map<number, Waiting<T>>();
  /** Memories handed in this tick, posted together at its end. */
  private outbox: ToLink[] = [];

  constructor(
    private readonly init: LinkingThreadInit,
    private readonly onLinked: OnLinked<T>,
  ) {}

  link(memory: LinkSource, now: number, tag: T): Promise<void> {
    const worker = this.worker ?? this.start();
    const id = ++this.nextId;
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    if (this.waiting.size === 0) worker.ref();
    this.waiting.set(id, { store: memory.store, tag, done, resolve, reject });
    if (this.outbox.length === 0) setImmediate(() => this.post());
    this.outbox.push({ id, memory, now });
    return done;
  }

  async idle(store: string): Promise<void> {
    for (;;) {
      const pending = [...this.waiting.values()].filter((w) => w.store === store).map((w) => w.done);
      if (pending.length === 0) return;
      await Promise.allSettled(pending);
    }
  }

  /**
   * Starts the thread now: loading it takes seconds, which the first stored memory would otherwise wait for its links.
   */
  warmUp(): void {
    if (!this.worker) this.start();
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.waiting.values()].map((w) => w.done));
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'close' } satisfies ToLinkingThread);
    const timer = setTimeout(() => void worker.terminate(), CLOSE_MS);
    await exited;
    clearTimeout(timer);
  }

  /** Posts what this tick handed in, to the thread running now (lost() has failed what an older one held). */
  private post(): void {
    const items = this.outbox;
    this.outbox = [];
    if (items.length > 0) this.worker?.postMessage({ type: 'link', items } satisfies ToLinkingThread);
  }

  private start(): Worker {
    const worker = tsWorker(WORKER_URL, { workerData: this.init });
    worker.unref();
    worker.on('message', (message: FromLinkingThread) => this.received(message));
    worker.on('error', (error) => this.lost(worker, error));
    worker.on('exit', (code) => this.lost(worker, new Error(`the linking thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private received(message: FromLinkingThread): void {
    const settled = message.ids.flatMap((id) => {
      const w = this.waiting.get(id);
      this.waiting.delete(id);
      return w ? [w] : [];
    });
    if (message.type === 'linked') {
      this.onLinked(
        message.store,
        message.links,
        settled.map((w) => w.tag),
      );
      for (const w of settled) w.resolve();
    } else {
      for (const w of settled) w.reject(new Error(`linking failed: ${message.error}`));
    }
    if (this.waiting.size === 0) this.worker?.unref();
  }

  /** The thread is gone (crashed, or stopped): what it held fails, and the next memory starts a new one. */
  private lost(worker: Worker, error: unknown): void {
    if (this.worker === worker) this.worker = null;
    else if (this.worker !== null) return; // an older thread: what waits belongs to the current one
    for (const w of this.waiting.values()) w.reject(error);
    this.waiting.clear();
    this.outbox = []; // failed with the rest
  }
}
