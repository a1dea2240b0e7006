/**
 * Whether this process is serving requests right now, or did a moment ago,
 * and when there is a gap between them. Background work reads it to yield:
 * the model embeds memories on one thread while requests run, and on every
 * thread once none has for QUIET_MS; it and the linking thread keep to a
 * share of the time, and start each piece of work just after a request ends
 * (domain/pace.ts). The cells live in shared memory, so a worker thread reads
 * them without a message (`RequestActivity.seenFrom`) and is woken when a
 * request ends, on the same clock (Date.now by default).
 */
import { GAP_WAIT_MS, type RequestLoad } from '../domain/index.js';

export const QUIET_MS = 250;
/** A gap is taken for background work only this soon after a request ended: the next one is furthest away then. */
export const FRESH_GAP_MS = 5;

/** The shared cells: requests running, when the last one ended (clock ms), the gap wait (ms); then ends (int32). */
const RUNNING = 0;
const LAST_ENDED = 1;
const GAP_WAIT = 2;
const TIMES_BYTES = 3 * Float64Array.BYTES_PER_ELEMENT;
const BYTES = TIMES_BYTES + Int32Array.BYTES_PER_ELEMENT;

export class RequestActivity implements RequestLoad {
  /** Hand this to a worker thread (workerData): `RequestActivity.seenFrom(shared)` reads the same activity there. */
  readonly shared: SharedArrayBuffer;
  private readonly cells: Float64Array;
  /** Counts ended requests; a thread waiting for a gap sleeps on it (Atomics.waitAsync). */
  private readonly ends: Int32Array;

  /** `gapWaitMs`: how long background work waits for a gap between requests at most (0: it never waits for one). */
  constructor(
    private readonly quietMs = QUIET_MS,
    private readonly clock: () => number = Date.now,
    gapWaitMs = GAP_WAIT_MS,
    shared?: SharedArrayBuffer,
  ) {
    this.shared = shared ?? new SharedArrayBuffer(BYTES);
    this.cells = new Float64Array(this.shared, 0, 3);
    this.ends = new Int32Array(this.shared, TIMES_BYTES, 1);
    if (shared) return;
    this.cells[LAST_ENDED] = Number.NEGATIVE_INFINITY;
    this.cells[GAP_WAIT] = gapWaitMs;
  }

  /** The activity another thread records in `shared`, read here (read only: never call begin() on it). */
  static seenFrom(shared: SharedArrayBuffer, quietMs = QUIET_MS): RequestLoad {
    return new RequestActivity(quietMs, Date.now, 0, shared);
  }

  /** Marks a request as running; the function returned marks it done (a second call does nothing). */
  begin(): () => void {
    this.cells[RUNNING]!++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.cells[RUNNING]!--;
      this.cells[LAST_ENDED] = this.clock();
      Atomics.add(this.ends, 0, 1);
      Atomics.notify(this.ends, 0);
    };
  }

  busy(): boolean {
    return this.running() || this.clock() - (this.cells[LAST_ENDED] ?? 0) < this.quietMs;
  }

  async untilGap(): Promise<void> {
    const deadline = performance.now() + (this.cells[GAP_WAIT] ?? 0);
    let ended = Atomics.load(this.ends, 0);
    if (this.inGap()) return;
    for (;;) {
      const left = deadline - performance.now();
      if (left <= 0) return;
      // Returns at once if a request ended since `ended` was read; else sleeps until one does, or the time is up.
      const wait = Atomics.waitAsync(this.ends, 0, ended, left);
      if (wait.async) await wait.value;
      const now = Atomics.load(this.ends, 0);
      // A request ended while this waited and none runs: a gap, however late this thread woke to it.
      if (now !== ended && !this.running()) return;
      ended = now;
    }
  }

  /** No request runs, and the last one ended a moment ago (the next is likeliest furthest away) or long ago. */
  private inGap(): boolean {
    const since = this.clock() - (this.cells[LAST_ENDED] ?? 0);
    return !this.running() && (since <= FRESH_GAP_MS || since >= this.quietMs);
  }

  private running(): boolean {
    return (this.cells[RUNNING] ?? 0) > 0;
  }
}
