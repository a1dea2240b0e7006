/**
 * The written tier rules (invariant 2). Only the mind's reclassify may move a
 * memory into or out of IDENTITY_CORE; salience moves memories between the
 * other three tiers, one step at a time, and ARCHIVE is the floor.
 */
import { TIERS, type Tier } from '../../domain/index.js';

export type TierChangeBy = 'MIND' | 'SALIENCE';

export type TierVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const rank = (tier: Tier): number => TIERS.indexOf(tier);

export function checkTierChange(from: Tier, to: Tier, by: TierChangeBy): TierVerdict {
  if (by === 'MIND') return { ok: true };
  if (from === to) return { ok: false, reason: 'the memory is in that tier already' };
  if (from === 'IDENTITY_CORE') return { ok: false, reason: 'salience never demotes out of IDENTITY_CORE' };
  if (to === 'IDENTITY_CORE') return { ok: false, reason: 'salience never promotes into IDENTITY_CORE' };
  if (Math.abs(rank(from) - rank(to)) !== 1) return { ok: false, reason: 'salience moves a memory one tier at a time' };
  return { ok: true };
}

/** The most present of several tiers (used for a consolidated memory). */
export function mostPresent(tiers: readonly Tier[]): Tier {
  return tiers.reduce((best, t) => (rank(t) < rank(best) ? t : best), 'ARCHIVE' as Tier);
}
