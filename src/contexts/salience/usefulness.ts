/**
 * Usefulness: whether what Recall offered helped, in [-1,1] (0 = no news).
 * Each outcome moves it part of the way towards +1 or −1, so it saturates
 * and a long record outweighs one odd report.
 */
import type { OutcomeKind } from '../../domain/index.js';

export interface UsefulnessStep {
  /** Share of the distance to +1 gained. */
  readonly up: number;
  /** Share of the distance to −1 lost. */
  readonly down: number;
}

export const USEFULNESS_STEPS: Readonly<Record<OutcomeKind, UsefulnessStep>> = {
  SUCCEEDED: { up: 0.3, down: 0 },
  PARTIAL: { up: 0.1, down: 0 },
  NOT_USED: { up: 0, down: 0.1 },
  FAILED: { up: 0, down: 0.3 },
};

export function nextUsefulness(current: number, outcome: OutcomeKind): number {
  const { up, down } = USEFULNESS_STEPS[outcome];
  const u = Math.max(-1, Math.min(1, current));
  return u + up * (1 - u) - down * (1 + u);
}
