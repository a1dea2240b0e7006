/**
 * The salience model (docs/salience.md):
 *
 *   score = floor + (1 − floor) · level,   level(t) = level(t₀) · 2^(−(t − t₀) / h)
 *   h = halfLife(tier) · (claimed ? claimFactor : 1) · (1 + useStability · ln(1 + uses))
 *
 * Events move the level at the moment they happened: a use closes `accessBoost`
 * of the gap to 1, a claim `claimBoost`, a tier change clamps it to the band of
 * the new tier. Every input is a timestamp or count stored on the node, so the
 * score at a moment is a pure function of the node: sweeps only materialise it.
 */
import { TIERS, type MemoryRecord, type SalienceAnchor, type Tier } from '../../domain/index.js';
import type { SalienceConfig } from './config.js';
import { DEFAULT_SALIENCE } from './config.js';

/** What the score depends on: the node's times and counts, and Salience's own anchor. */
export type ScoringInput = Pick<
  MemoryRecord,
  | 'tier'
  | 'createdAt'
  | 'lastAccessedAt'
  | 'accessCount'
  | 'claimed'
  | 'claimedAt'
  | 'tierChangedAt'
  | 'salienceAnchor'
  | 'salienceUses'
>;

const rank = (tier: Tier): number => TIERS.indexOf(tier);

export const toLevel = (score: number, c: SalienceConfig): number =>
  Math.min(1, Math.max(0, (score - c.floor) / (1 - c.floor)));
export const toScore = (level: number, c: SalienceConfig): number => c.floor + (1 - c.floor) * level;

export function halfLife(tier: Tier, claimed: boolean, uses: number, c: SalienceConfig): number {
  if (tier === 'IDENTITY_CORE') return Infinity;
  return c.halfLifeMs[tier] * (claimed ? c.claimFactor : 1) * (1 + c.useStability * Math.log1p(uses));
}

export function decayed(level: number, elapsedMs: number, halfLifeMs: number): number {
  if (!(elapsedMs > 0) || !Number.isFinite(halfLifeMs)) return level;
  return level * 2 ** (-elapsedMs / halfLifeMs);
}

/** `times` uses at once; each closes `boost` of what is left to 1, so each adds less than the one before. */
export function boosted(level: number, times: number, boost: number): number {
  return 1 - (1 - level) * (1 - boost) ** times;
}

/** Uses of any kind: reads by id and `markUsed` reports. */
export function usesOf(m: ScoringInput): { readonly count: number; readonly lastAt: number | null } {
  const marked = m.salienceUses;
  const lastAt = Math.max(m.lastAccessedAt ?? -Infinity, marked?.lastAt ?? -Infinity);
  return { count: m.accessCount + (marked?.count ?? 0), lastAt: Number.isFinite(lastAt) ? lastAt : null };
}

/** The anchor a memory has before any event: its tier's start score at creation. */
export function startAnchor(m: Pick<ScoringInput, 'createdAt'>, tier: Tier, c: SalienceConfig): SalienceAnchor {
  return {
    level: tier === 'IDENTITY_CORE' ? 1 : toLevel(c.start[tier], c),
    at: m.createdAt,
    tier,
    uses: 0,
    claimed: false,
  };
}

/**
 * The level a memory carries into a new tier. Moving down never raises it and
 * caps it at the threshold it would have crossed (a session's end, a mind's
 * demotion); moving up lifts it at least to the promotion threshold of the
 * boundary crossed. Either way it lands inside the new tier's band, so the next
 * sweep does not send it straight back (docs/salience.md, "Hysteresis").
 */
export function entryLevel(level: number, from: Tier, to: Tier, c: SalienceConfig): number {
  if (from === to) return level;
  if (to === 'IDENTITY_CORE') return 1;
  const t = c.thresholds;
  if (rank(to) > rank(from)) {
    if (to === 'ACTIVE_CONTEXT') return level;
    return Math.min(level, toLevel(to === 'LONG_TERM' ? t.demoteFromActive : t.demoteToArchive, c));
  }
  return Math.max(level, toLevel(to === 'ACTIVE_CONTEXT' ? t.promoteToActive : t.promoteFromArchive, c));
}

type Happening =
  | { readonly kind: 'claim'; readonly at: number }
  | { readonly kind: 'use'; readonly at: number; readonly count: number; readonly total: number }
  | { readonly kind: 'tier'; readonly at: number; readonly to: Tier };

// Same-moment events apply in cause order: a claim or a use can be why the tier changed.
const ORDER: Record<Happening['kind'], number> = { claim: 0, use: 1, tier: 2 };

export interface Folded {
  readonly anchor: SalienceAnchor;
  /** How many events were folded into the stored anchor (0: it still holds). */
  readonly folded: number;
}

/**
 * Folds what happened since the anchor (uses, a claim, a tier change) into a
 * new anchor, each at its own time; events after `now` wait. `fromTier` names
 * the tier a memory had before its first tier change when no anchor exists yet;
 * without it the memory counts as stored in its current tier.
 */
export function fold(m: ScoringInput, now: number, c: SalienceConfig, fromTier?: Tier): Folded {
  const base = m.salienceAnchor ?? startAnchor(m, fromTier ?? m.tier, c);
  const uses = usesOf(m);
  const pending: Happening[] = [];
  if (m.claimed && !base.claimed) pending.push({ kind: 'claim', at: m.claimedAt ?? base.at });
  if (uses.count > base.uses)
    pending.push({ kind: 'use', at: uses.lastAt ?? base.at, count: uses.count - base.uses, total: uses.count });
  if (m.tier !== base.tier) pending.push({ kind: 'tier', at: m.tierChangedAt ?? base.at, to: m.tier });
  pending.sort((a, b) => a.at - b.at || ORDER[a.kind] - ORDER[b.kind]);

  let { level, at, tier, uses: used, claimed } = base;
  let folded = 0;
  for (const event of pending) {
    if (event.at > now) continue;
    const when = Math.max(event.at, at);
    level = decayed(level, when - at, halfLife(tier, claimed, used, c));
    at = when;
    folded++;
    switch (event.kind) {
      case 'claim':
        level = boosted(level, 1, c.claimBoost);
        claimed = true;
        break;
      case 'use':
        level = boosted(level, event.count, c.accessBoost);
        used = event.total;
        break;
      case 'tier':
        level = entryLevel(level, tier, event.to, c);
        tier = event.to;
        break;
      default: {
        const never: never = event;
        throw new Error(`unknown event ${JSON.stringify(never)}`);
      }
    }
  }
  return { anchor: { level, at, tier, uses: used, claimed }, folded };
}

/** The score an anchor decays to by `now`. */
export function scoreAt(anchor: SalienceAnchor, now: number, c: SalienceConfig): number {
  if (anchor.tier === 'IDENTITY_CORE') return 1;
  return toScore(decayed(anchor.level, now - anchor.at, halfLife(anchor.tier, anchor.claimed, anchor.uses, c)), c);
}

/**
 * A memory's score in [0,1] at `now`: what `Memory.salience` and Recall read.
 * IDENTITY_CORE does not decay and stays at 1.
 */
export function currentSalience(m: ScoringInput, now: number, c: SalienceConfig = DEFAULT_SALIENCE): number {
  if (m.tier === 'IDENTITY_CORE') return 1;
  return scoreAt(fold(m, now, c).anchor, now, c);
}
