/**
 * Whether this process is serving requests right now, or did a moment ago.
 * Background work reads it to yield: the model embeds memories on one thread
 * while requests run, and on every thread once none has for QUIET_MS.
 */
export const QUIET_MS = 250;

export class RequestActivity {
  private running = 0;
  private lastEnded = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly quietMs = QUIET_MS,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** Marks a request as running; the function returned marks it done (a second call does nothing). */
  begin(): () => void {
    this.running++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.running--;
      this.lastEnded = this.clock();
    };
  }

  busy(): boolean {
    return this.running > 0 || this.clock() - this.lastEnded < this.quietMs;
  }
}
