/**
 * Linking steps aside while requests run. A stored memory's links are
 * background work, and the larger part of the database's work on it: their
 * candidate reads and link writes take about 1.5 ms of Neo4j per memory,
 * storing it in a batch of 1,000 about 0.2 ms. During a burst of stores,
 * linking at full pace took most of the database from the stores
 * themselves. While requests run, after a batch that took t ms the next one
 * waits up to t × (1 − share) / share (four times t at the default share of
 * 0.2), or until requests stop; with none running, batches follow each other
 * at once. A batch due while requests run also waits for a gap between them
 * (a bounded wait), so that its database work does not run beside a store.
 * Linking so keeps going under any load (with no gaps at all, at a little
 * less than a fifth of its pace), and catches up when the burst ends (each
 * memory's linkPendingAt keeps the backlog durable).
 */
import { gapBetweenRequests, pauseAfter, type RequestLoad } from '../../domain/index.js';

/** How often a waiting batch looks again whether requests have stopped (ms). */
export const RECHECK_MS = 25;

export interface PacerOptions {
  /** The requests the process serves. */
  readonly load: RequestLoad;
  /** Share of the time linking may take while requests run, in (0, 1]; 1: it never waits. */
  readonly share: number;
  readonly clock?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** One pace for every batch of a pipeline, whatever store it is for. */
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
