/**
 * Background work that yields to requests (mechanical linking's Pacer, the
 * model threads' scheduler). While requests run it keeps to a share of the
 * time: after a piece of work that took t ms, the next waits
 * t × (1 − share) / share. And it starts in a gap between requests: a piece
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
