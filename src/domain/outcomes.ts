/** What the write gate and the decay sweep answer the commands they handle (the bus's replies, replies.ts). */
import type { MemoryRecord } from './memory.js';
import type { Tier } from './tiers.js';

/** One memory of a StoreCommand as Hippocampus wrote it. */
export interface Stored {
  readonly memory: MemoryRecord;
  /** false when the id existed already: the store was a retry and changed nothing. */
  readonly created: boolean;
}

export interface ForgetOutcome {
  readonly id: string;
  readonly forgotten: boolean;
  /**
   * Memories consolidated from the forgotten one: memories of their own, so they stay and still say what it said
   * (their record of it loses its metadata). Forget them too when that should go.
   */
  readonly consolidatedInto: readonly string[];
}

/** A tier change Hippocampus applied for Salience (a TierChangeBatch answers with those it applied). */
export interface TierMove {
  readonly id: string;
  readonly store: string;
  readonly from: Tier;
  readonly to: Tier;
}

/** Hippocampus's answer to ShutdownCommand: the writes it waited for, and the memories it keeps. */
export interface ShutdownFlush {
  readonly inFlight: number;
  readonly memories: number;
}

/** What one decay sweep did (SweepDecay's answer). */
export interface SweepReport {
  readonly store: string | null;
  readonly now: number;
  readonly scanned: number;
  /** Memories whose materialised score or anchor was written. */
  readonly updated: number;
  readonly promoted: number;
  readonly demoted: number;
  readonly batches: number;
  /** This run took over from an earlier run of the same sweep that stopped part-way. */
  readonly resumed: boolean;
  readonly ms: number;
}
