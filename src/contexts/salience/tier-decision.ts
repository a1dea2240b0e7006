/**
 * When Salience asks Hippocampus to move a memory: promote above a threshold,
 * demote below a lower one (the gap between them is the hysteresis), one tier
 * at a time. IDENTITY_CORE is never touched; ARCHIVE is the floor; the working
 * memory of an ended session moves down unless the mind claimed it.
 */
import type { Tier } from '../../domain/index.js';
import type { SalienceConfig } from './config.js';

export interface TierSituation {
  readonly tier: Tier;
  readonly score: number;
  readonly claimed: boolean;
  /** The memory's session has ended (only the SessionEnded handler knows). */
  readonly sessionEnded?: boolean;
}

export type TierDecision =
  | { readonly kind: 'STAY' }
  | { readonly kind: 'PROMOTE'; readonly to: Tier; readonly reason: string }
  | { readonly kind: 'DEMOTE'; readonly to: Tier; readonly reason: string };

const STAY: TierDecision = { kind: 'STAY' };
const fmt = (x: number) => x.toFixed(3);

export function decideTier(s: TierSituation, c: SalienceConfig): TierDecision {
  const t = c.thresholds;
  switch (s.tier) {
    case 'IDENTITY_CORE':
      return STAY;
    case 'ACTIVE_CONTEXT':
      if (s.sessionEnded && !s.claimed)
        return { kind: 'DEMOTE', to: 'LONG_TERM', reason: 'its session ended and it was not claimed' };
      if (s.score < t.demoteFromActive) {
        return { kind: 'DEMOTE', to: 'LONG_TERM', reason: `salience ${fmt(s.score)} fell below ${t.demoteFromActive}` };
      }
      return STAY;
    case 'LONG_TERM':
      if (s.score > t.promoteToActive) {
        return {
          kind: 'PROMOTE',
          to: 'ACTIVE_CONTEXT',
          reason: `salience ${fmt(s.score)} rose above ${t.promoteToActive}`,
        };
      }
      if (s.score < t.demoteToArchive) {
        return { kind: 'DEMOTE', to: 'ARCHIVE', reason: `salience ${fmt(s.score)} fell below ${t.demoteToArchive}` };
      }
      return STAY;
    case 'ARCHIVE':
      if (s.score > t.promoteFromArchive) {
        return {
          kind: 'PROMOTE',
          to: 'LONG_TERM',
          reason: `salience ${fmt(s.score)} rose above ${t.promoteFromArchive}`,
        };
      }
      return STAY;
    default: {
      const never: never = s.tier;
      throw new Error(`unknown tier ${String(never)}`);
    }
  }
}
