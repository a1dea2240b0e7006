/**
 * Shutdown admission: every write Hippocampus takes passes here. After
 * close() nothing new is admitted (ShuttingDownError), and close() waits for
 * the writes in flight to commit (each is its own transaction, so committed
 * is flushed).
 */
import { ShuttingDownError } from '../../domain/index.js';

export class ShutdownAdmission {
  /** Writes running now; close() waits for them. */
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;

  /** Runs the work unless closed, and tracks it while it runs. */
  admit<R>(work: () => Promise<R>): Promise<R> {
    if (this.closed) return Promise.reject(new ShuttingDownError());
    const running = work();
    this.inFlight.add(running);
    void running.then(
      () => this.inFlight.delete(running),
      () => this.inFlight.delete(running),
    );
    return running;
  }

  /** Admits nothing more and waits for the writes in flight (failed ones included); how many there were. */
  async close(): Promise<number> {
    this.closed = true;
    const inFlight = this.inFlight.size;
    await Promise.allSettled([...this.inFlight]);
    return inFlight;
  }
}
