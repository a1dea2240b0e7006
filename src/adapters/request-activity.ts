/**
 * Whether this process is serving requests right now, or did a moment ago.
 * Background work reads it to yield: the model embeds memories on one thread
 * while requests run, and on every thread once none has for QUIET_MS; the
 * linking thread paces itself (synapse's Pacer). The two numbers live in
 * shared memory, so a worker thread reads them without a message
 * (`RequestActivity.seenFrom`), on the same clock (Date.now by default).
 */
export const QUIET_MS = 250;

/** What background work asks. */
export interface Activity {
  busy(): boolean;
}

/** The shared cells: requests running, and when the last one ended (clock ms). */
const RUNNING = 0;
const LAST_ENDED = 1;

export class RequestActivity implements Activity {
  /** Hand this to a worker thread (workerData): `RequestActivity.seenFrom(shared)` reads the same activity there. */
  readonly shared: SharedArrayBuffer;
  private readonly cells: Float64Array;

  constructor(
    private readonly quietMs = QUIET_MS,
    private readonly clock: () => number = Date.now,
    shared?: SharedArrayBuffer,
  ) {
    this.shared = shared ?? new SharedArrayBuffer(2 * Float64Array.BYTES_PER_ELEMENT);
    this.cells = new Float64Array(this.shared);
    if (!shared) this.cells[LAST_ENDED] = Number.NEGATIVE_INFINITY;
  }

  /** The activity another thread records in `shared`, read here (read only: never call begin() on it). */
  static seenFrom(shared: SharedArrayBuffer, quietMs = QUIET_MS): Activity {
    return new RequestActivity(quietMs, Date.now, shared);
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
    };
  }

  busy(): boolean {
    return (this.cells[RUNNING] ?? 0) > 0 || this.clock() - (this.cells[LAST_ENDED] ?? 0) < this.quietMs;
  }
}
