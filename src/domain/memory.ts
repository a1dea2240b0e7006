import type { Tier } from './tiers.js';

/** A memory record as Hippocampus keeps it (times are epoch milliseconds). */
export interface MemoryRecord {
  readonly id: string;
  readonly store: string;
  readonly content: string;
  readonly tier: Tier;
  readonly claimed: boolean;
  readonly tags: readonly string[];
  readonly people: readonly string[];
  readonly emotions: readonly string[];
  readonly metadata: unknown;
  readonly occurredAt: number;
  readonly createdAt: number;
  readonly lastAccessedAt: number | null;
  readonly accessCount: number;
  readonly sessionId: string | null;
  readonly claimedAt: number | null;
  readonly tierChangedAt: number | null;
  /** Salience's own properties as last materialised (null until a sweep has run). */
  readonly salience: number | null;
  readonly salienceAt: number | null;
  /** Salience's anchor: its state after the last use, claim or tier change it folded in (absent until then). */
  readonly salienceAnchor?: SalienceAnchor | null;
  /** Uses reported through `markUsed`, as Salience counted them (absent until one). */
  readonly salienceUses?: SalienceUses | null;
  /** In [-1,1] from reported outcomes (Salience's property; 0 when none). */
  readonly usefulness: number;
}

/**
 * The state Salience's score decays from (its own `salienceAnchor*` properties):
 * the level above the floor in [0,1] at `at`, and the tier, uses and claim it
 * had folded in by then. Time alone never moves it; events do.
 */
export interface SalienceAnchor {
  readonly level: number;
  readonly at: number;
  readonly tier: Tier;
  readonly uses: number;
  readonly claimed: boolean;
}

/** How often a memory was marked used after a recall, and when last (`salienceUses`, `salienceUsedAt`). */
export interface SalienceUses {
  readonly count: number;
  readonly lastAt: number;
}

/** Reads the anchor from a node's properties (times in epoch ms); null when Salience has written none. */
export function salienceAnchorOf(props: Readonly<Record<string, unknown>>): SalienceAnchor | null {
  const { salienceAnchor: level, salienceAnchorAt: at, salienceAnchorTier: tier, salienceAnchorUses: uses } = props;
  if (typeof level !== 'number' || typeof at !== 'number' || typeof tier !== 'string') return null;
  return {
    level,
    at,
    tier: tier as Tier,
    uses: typeof uses === 'number' ? uses : 0,
    claimed: props.salienceAnchorClaimed === true,
  };
}

export function salienceUsesOf(props: Readonly<Record<string, unknown>>): SalienceUses | null {
  const { salienceUses: count, salienceUsedAt: lastAt } = props;
  return typeof count === 'number' && typeof lastAt === 'number' ? { count, lastAt } : null;
}

/** What a caller asks to store, before Hippocampus has validated it. */
export interface StoreRequest {
  readonly id?: string | null;
  readonly store?: string | null;
  readonly content: string;
  readonly tier?: string | null;
  readonly tags?: readonly string[] | null;
  readonly people?: readonly string[] | null;
  readonly emotions?: readonly string[] | null;
  readonly metadata?: unknown;
  readonly occurredAt?: number | null;
  readonly sessionId?: string | null;
  readonly embedding?: readonly number[] | null;
}

/** A validated memory about to be written. */
export interface NewMemory {
  readonly id: string;
  readonly store: string;
  readonly content: string;
  readonly tier: Tier;
  readonly tags: readonly string[];
  readonly people: readonly string[];
  readonly emotions: readonly string[];
  /** JSON text, or null. */
  readonly metadata: string | null;
  readonly occurredAt: number;
  readonly sessionId: string | null;
  readonly embedding: readonly number[] | null;
}

/** One entry of the audit trail. */
/** Events of one memory's history read when the caller names no limit. */
export const DEFAULT_HISTORY_LIMIT = 100;

export interface MemoryEventRecord {
  readonly id: string;
  readonly type: string;
  readonly store: string;
  readonly at: number;
  readonly memoryId: string | null;
  readonly sessionId: string | null;
  readonly causationId: string | null;
  readonly payload: unknown;
}
