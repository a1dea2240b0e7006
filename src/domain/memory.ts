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
