/**
 * Coalesces work per key: items pushed while a batch for their key runs (or
 * in the same tick) go into the next batch, so storeMany's one MemoryStored
 * per memory becomes one statement per batch. One batch per key at a time;
 * each push resolves when the batch holding it has finished. With a pace,
 * each batch first waits its turn (the domain's Pacer).
 */
interface Waiting<T> {
  readonly item: T;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** Paces batches (the domain's Pacer): `before` resolves when the next may start, `after` is told how long one took. */
export interface BatchPace {
  before(): Promise<void>;
  after(tookMs: number): void;
}

interface Lane<T> {
  readonly waiting: Waiting<T>[];
  running: Promise<void> | null;
}

export class Coalescer<T> {
  private readonly lanes = new Map<string, Lane<T>>();

  constructor(
    private readonly work: (key: string, items: T[]) => Promise<void>,
    private readonly maxBatch: number,
    private readonly pace: BatchPace | null = null,
  ) {}

  push(key: string, item: T): Promise<void> {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { waiting: [], running: null };
      this.lanes.set(key, lane);
    }
    const done = new Promise<void>((resolve, reject) => lane.waiting.push({ item, resolve, reject }));
    // setImmediate: every item published in this tick joins the first batch.
    if (!lane.running)
      lane.running = new Promise<void>((start) => setImmediate(start)).then(() => this.drain(key, lane));
    return done;
  }

  /** Resolves once nothing is queued or running for the key. */
  async idle(key: string): Promise<void> {
    for (let lane = this.lanes.get(key); lane?.running; lane = this.lanes.get(key)) await lane.running;
  }

  private async drain(key: string, lane: Lane<T>): Promise<void> {
    while (lane.waiting.length > 0) {
      await this.pace?.before();
      // Taken after the pause: what arrived meanwhile joins this batch.
      const batch = lane.waiting.splice(0, this.maxBatch);
      const started = performance.now();
      try {
        await this.work(
          key,
          batch.map((w) => w.item),
        );
        for (const w of batch) w.resolve();
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
      this.pace?.after(performance.now() - started);
    }
    lane.running = null;
    this.lanes.delete(key);
  }
}
