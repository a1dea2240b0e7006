/**
 * Background work that yields to requests (the Pacer below, which mechanical
 * linking and cold-storage checkpoints use; the model threads' scheduler).
 * While requests run it keeps to a share of the time: after a piece of work
 * that took t ms, the next waits t × (1 − share) / share. And it starts in a gap between requests: a piece
 * that runs beside a request slows it down on a small machine, a piece that
 * starts as one ends is usually done before the next comes.
 */

/** What background work reads of the requests the process serves. */
export interface RequestLoad {
  /** Requests run now, or did a moment ago: background work keeps to its share of the time. */
  busy(): boolean;
  /**
   * Resolves in a gap between requests: at once if none runs and the last ended a moment ago, else as soon as the
   * next one ends with none left running, or after a bounded wait whatever runs (under a load with no gaps, many
   * clients at once, background work still moves, at a little less than its share).
   */
  untilGap(): Promise<void>;
}

/** How long to wait after work that took `tookMs`, so that the work takes `share` of the time at most. */
export function pauseAfter(tookMs: number, share: number): number {
  return share >= 1 ? 0 : (Math.max(0, tookMs) * (1 - share)) / share;
}

/** The default of TOTAL_RECALL_BACKGROUND_GAP_WAIT_MS: how long background work waits for a gap at most (ms). */
export const GAP_WAIT_MS = 100;

/** While requests run, resolves in a gap between them; at once otherwise. */
export async function gapBetweenRequests(load: RequestLoad): Promise<void> {
  if (load.busy()) await load.untilGap();
}

/** A process that serves no requests (a worker alone, a test): background work never waits. */
export const NO_REQUESTS: RequestLoad = { busy: () => false, untilGap: async () => undefined };

/** How often a waiting piece of work looks again whether requests have stopped (ms). */
const RECHECK_MS = 25;

export interface PacerOptions {
  /** The requests the process serves. */
  readonly load: RequestLoad;
  /** Share of the time the work may take while requests run, in (0, 1]; 1: it never waits. */
  readonly share: number;
  readonly clock?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * One pace for a stream of background work (linking's batches, a checkpoint's reads): while requests run, after a
 * piece that took t ms the next waits up to t × (1 − share) / share, or until requests stop, then for a gap.
 */
export class Pacer {
  private resumeAt = Number.NEGATIVE_INFINITY;
  private readonly clock: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: PacerOptions) {
    this.clock = options.clock ?? (() => performance.now());
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /**
   * Resolves when the next batch may start: at once unless requests run; while they do, once the last batch's pause
   * is over, in a gap between them (RequestLoad.untilGap).
   */
  async before(): Promise<void> {
    const { load } = this.options;
    while (load.busy() && this.clock() < this.resumeAt)
      await this.sleep(Math.min(RECHECK_MS, this.resumeAt - this.clock()));
    await this.gap();
  }

  /** While requests run, resolves in a gap between them; at once otherwise. */
  gap(): Promise<void> {
    return gapBetweenRequests(this.options.load);
  }

  /** A batch has finished after `tookMs`. */
  after(tookMs: number): void {
    this.resumeAt = this.clock() + pauseAfter(tookMs, this.options.share);
  }
}
