/**
 * Strength maths. A strength lives in (0, 1]: strengthening closes a share of
 * the distance to 1 but saturates at MAX_STRENGTH, weakening removes a share
 * of what is left but stops at MIN_STRENGTH, so neither ever reaches its bound.
 */
import { InvalidInputError } from '../../domain/index.js';

/** Strengthening never goes past this (a link is never certain). */
export const MAX_STRENGTH = 0.99;
/** Weakening never goes below this (a link is never gone; forget removes memories, not links). */
export const MIN_STRENGTH = 0.01;
/** A semantic CREATE without a strength. */
export const DEFAULT_SEMANTIC_STRENGTH = 0.6;
/** STRENGTHEN / WEAKEN without a strength: the share of the distance moved. */
export const DEFAULT_STEP = 0.2;
/** Mechanical links start between these: the mind's own links weigh more. */
export const MECHANICAL_FLOOR = 0.1;
export const MECHANICAL_CEILING = 0.5;

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** s + step·(1 − s), saturating at MAX_STRENGTH; never lowers a strength. */
export function strengthen(strength: number, step: number): number {
  return Math.max(strength, Math.min(MAX_STRENGTH, strength + clamp01(step) * (1 - strength)));
}

/** s·(1 − step), stopping at MIN_STRENGTH; never raises a strength. */
export function weaken(strength: number, step: number): number {
  return Math.min(strength, Math.max(MIN_STRENGTH, strength * (1 - clamp01(step))));
}

/** A rule's score in [0,1] as a starting strength in [MECHANICAL_FLOOR, MECHANICAL_CEILING]. */
export function mechanicalStrength(score: number): number {
  return MECHANICAL_FLOOR + (MECHANICAL_CEILING - MECHANICAL_FLOOR) * clamp01(score);
}

/** A strength (CREATE) or step (STRENGTHEN, WEAKEN) from the caller must lie in (0, 1]. */
export function validateStrength(value: number | null | undefined, fallback: number): number {
  if (value === null || value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0 || value > 1) {
    throw new InvalidInputError('SYNAPSE.INVALID_STRENGTH', `strength must be a number in (0, 1], got ${value}`, {
      strength: value,
    });
  }
  return value;
}

/** What a stored strength becomes when the mind sets one: never below MIN_STRENGTH. */
export function storedStrength(value: number): number {
  return Math.max(MIN_STRENGTH, Math.min(1, value));
}
