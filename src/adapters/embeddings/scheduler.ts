/**
 * Which model thread runs what next. Several threads each hold the model;
 * a search's question goes to the first free one, ahead of every memory
 * waiting. Memories (passages) are cut into sub-batches of similar length
 * (each text still runs alone in the model: onnx-model.ts) and spread over the
 * free threads, but while the process serves requests they take one thread at
 * most, so a backfill leaves a core to searches and stores, and takes every
 * core again once requests stop. While
 * requests run, memories may also be held to a share of the time: after a
 * sub-batch that took t ms the next waits t × (1 − share) / share, or until
 * requests stop, and each starts in a gap between requests: the pace
 * mechanical linking keeps too (domain/pace.ts). While requests run, a
 * sub-batch is also cut to `busySubBatch` texts, so that what starts in a gap
 * has ended before the next request is likely to come (a sub-batch of 16
 * takes about 100 ms, a piece of two about 15).
 */
import { pauseAfter, type RequestLoad } from '../../domain/index.js';
import type { Role } from './onnx-model.js';

/** One model thread: embeds one batch at a time. */
export interface ModelRunner {
  run(texts: readonly string[], role: Role): Promise<Float32Array[]>;
}

export interface SchedulerOptions {
  /** Passages a model thread is sent at once. */
  readonly subBatch: number;
  /** Passages a model thread is sent at once while requests run (default: subBatch). */
  readonly busySubBatch?: number;
  /** The requests the process serves: while they run, passages use one thread at most. */
  readonly load: RequestLoad;
  /** Share of the time memories may take while requests run, in (0, 1] (default 1: one thread, never waiting). */
  readonly busyShare?: number;
  /** How soon passages held back while requests run look again (ms). */
  readonly recheckMs?: number;
  readonly clock?: () => number;
}

export interface Task {
  readonly texts: readonly string[];
  readonly role: Role;
  readonly done: (vectors: Float32Array[]) => void;
  readonly fail: (error: Error) => void;
  /** A sub-batch of a job that has already failed is not run. */
  readonly dropped?: () => boolean;
}

/** A task as two: the first `count` texts and the rest; the task is done once both are. */
export function splitTask(task: Task, count: number): [Task, Task] {
  const parts: Float32Array[][] = [[], []];
  let left = 2;
  const part = (index: 0 | 1, texts: readonly string[]): Task => ({
    ...task,
    texts,
    done: (vectors) => {
      parts[index] = vectors;
      if (--left === 0) task.done([...parts[0]!, ...parts[1]!]);
    },
  });
  return [part(0, task.texts.slice(0, count)), part(1, task.texts.slice(count))];
}

export class EmbedScheduler {
  private readonly queries: Task[] = [];
  private readonly passages: Task[] = [];
  private readonly free: ModelRunner[];
  private passagesRunning = 0;
  /** While requests run, no memory starts before this (clock ms). */
  private passagesResumeAt = Number.NEGATIVE_INFINITY;
  private recheck: NodeJS.Timeout | null = null;
  /** Waiting for a gap between requests before the next passage. */
  private awaitingGap = false;
  private readonly clock: () => number;

  constructor(
    runners: readonly ModelRunner[],
    private readonly options: SchedulerOptions,
  ) {
    if (runners.length === 0) throw new Error('an embedding scheduler needs at least one model thread');
    this.free = [...runners];
    this.clock = options.clock ?? (() => performance.now());
  }

  /** One unit vector per text, in order. */
  embed(texts: readonly string[], role: Role): Promise<Float32Array[]> {
    if (texts.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      if (role === 'query') this.queries.push({ texts, role, done: resolve, fail: reject });
      else this.splitPassages(texts, resolve, reject);
      this.dispatch();
    });
  }

  /** Rejects everything waiting (the threads are gone). */
  failWaiting(error: Error): void {
    for (const task of this.queries.splice(0).concat(this.passages.splice(0))) task.fail(error);
    if (this.recheck) clearTimeout(this.recheck);
    this.recheck = null;
  }

  /** Sub-batches by length, each filling its place in the job's answer. */
  private splitPassages(
    texts: readonly string[],
    resolve: (v: Float32Array[]) => void,
    reject: (e: Error) => void,
  ): void {
    const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length);
    const out: Float32Array[] = new Array(texts.length);
    let left = Math.ceil(texts.length / this.options.subBatch);
    let failed = false;
    for (let from = 0; from < order.length; from += this.options.subBatch) {
      const places = order.slice(from, from + this.options.subBatch);
      this.passages.push({
        texts: places.map((i) => texts[i]!),
        role: 'passage',
        done: (vectors) => {
          places.forEach((place, k) => (out[place] = vectors[k]!));
          if (--left === 0 && !failed) resolve(out);
        },
        fail: (error) => {
          if (!failed) reject(error);
          failed = true;
        },
        dropped: () => failed,
      });
    }
  }

  /** `inGap`: a gap between requests is here now (awaitGap found it), so a passage may start while they run. */
  private dispatch(inGap = false): void {
    while (this.free.length > 0) {
      const query = this.queries.shift();
      if (query) {
        this.start(query, false);
        continue;
      }
      while (this.passages[0]?.dropped?.()) this.passages.shift();
      if (this.passages.length === 0) return;
      if (this.options.load.busy()) {
        if (this.passagesRunning >= 1 || this.clock() < this.passagesResumeAt) {
          this.recheckLater();
          return;
        }
        if (!inGap) {
          this.awaitGap();
          return;
        }
      }
      this.start(this.nextPassage(), true);
    }
  }

  /** The next sub-batch to run, cut to busySubBatch while requests run (the rest stays first in line). */
  private nextPassage(): Task {
    const task = this.passages.shift()!;
    const piece = Math.max(1, this.options.busySubBatch ?? this.options.subBatch);
    if (task.texts.length <= piece || !this.options.load.busy()) return task;
    const [head, tail] = splitTask(task, piece);
    this.passages.unshift(tail);
    return head;
  }

  private start(task: Task, passage: boolean): void {
    const runner = this.free.pop()!;
    if (passage) this.passagesRunning++;
    const started = this.clock();
    runner
      .run(task.texts, task.role)
      .then(task.done, task.fail)
      .finally(() => {
        if (passage) {
          this.passagesRunning--;
          const now = this.clock();
          this.passagesResumeAt = now + pauseAfter(now - started, this.options.busyShare ?? 1);
        }
        this.free.push(runner);
        this.dispatch();
      });
  }

  private awaitGap(): void {
    if (this.awaitingGap) return;
    this.awaitingGap = true;
    void this.options.load.untilGap().then(() => {
      this.awaitingGap = false;
      // The gap is taken now or not at all: a later dispatch waits for a gap of its own.
      this.dispatch(true);
    });
  }

  private recheckLater(): void {
    if (this.recheck) return;
    this.recheck = setTimeout(() => {
      this.recheck = null;
      this.dispatch();
    }, this.options.recheckMs ?? 50);
    this.recheck.unref();
  }
}
