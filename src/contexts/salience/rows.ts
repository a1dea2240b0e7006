/** Rows of Salience's read statements as scoring inputs (times already epoch ms). */
import { isTier, type Tier } from '../../domain/index.js';
import type { ScoringInput } from './model.js';

/** A memory as a sweep or a rescore reads it: the inputs, and the materialised score. */
export interface ScoringRow extends ScoringInput {
  readonly id: string;
  readonly store: string;
  readonly salience: number | null;
  readonly salienceAt: number | null;
}

const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

export function toScoringRow(r: Record<string, unknown>): ScoringRow {
  const anchorTier = r.anchorTier;
  const anchorLevel = num(r.anchorLevel);
  const anchorAt = num(r.anchorAt);
  const marked = num(r.marked);
  const markedAt = num(r.markedAt);
  return {
    id: String(r.id),
    store: String(r.store),
    tier: r.tier as Tier,
    createdAt: num(r.createdAt) ?? 0,
    lastAccessedAt: num(r.lastAccessedAt),
    accessCount: num(r.accessCount) ?? 0,
    claimed: r.claimed === true,
    claimedAt: num(r.claimedAt),
    tierChangedAt: num(r.tierChangedAt),
    salience: num(r.salience),
    salienceAt: num(r.salienceAt),
    salienceAnchor:
      anchorLevel !== null && anchorAt !== null && isTier(anchorTier)
        ? {
            level: anchorLevel,
            at: anchorAt,
            tier: anchorTier,
            uses: num(r.anchorUses) ?? 0,
            claimed: r.anchorClaimed === true,
          }
        : null,
    salienceUses: marked !== null && markedAt !== null ? { count: marked, lastAt: markedAt } : null,
  };
}
