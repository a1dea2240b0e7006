/**
 * Background work that yields to requests by a share of the time (mechanical
 * linking's Pacer, the model threads' scheduler): after a piece of work that
 * took t ms while requests run, the next waits t × (1 − share) / share.
 */

/** How long to wait after work that took `tookMs`, so that the work takes `share` of the time at most. */
export function pauseAfter(tookMs: number, share: number): number {
  return share >= 1 ? 0 : (Math.max(0, tookMs) * (1 - share)) / share;
}
