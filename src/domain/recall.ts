/** What Recall answers its queries with: ranked hits (docs/recall.md) and reflection candidates. */
import type { MemoryRecord } from './memory.js';
import type { AssociationType } from './tiers.js';

/** A memory found for a query, with the evidence it was found by. */
export interface Candidate {
  readonly memory: MemoryRecord;
  /** Raw BM25 score over the store's statistics: picks the seeds of activation, never counts in confidence. */
  readonly textScore: number;
  /** Share of the question's content words the memory holds (evidence.ts). */
  readonly coverage: number;
  /** Share of the question's numbers and names the memory holds. */
  readonly exact: number;
  /** 1 when the question names numbers or names and the memory holds none of them. */
  readonly exactMiss: number;
  /** 1 when the memory involves a person the query names (namesPerson in query-text.ts), else 0. */
  readonly personMatch: number;
  /** 1 when the memory happened within a date the query names (datesNamed in query-dates.ts), else 0. */
  readonly dateMatch: number;
  /** Cosine similarity to the query's vector; null when either has none. */
  readonly similarity: number | null;
  /** The share of a seed's weight that reached this memory over associations, in [0,1]. */
  readonly activation: number;
  /** The seed that share came from (null: not reached by association). */
  readonly via: string | null;
  readonly path: readonly AssociationType[];
  readonly salience: number;
  readonly usefulness: number;
}

export interface RankedHit extends Candidate {
  /** Confidence from the memory's own match alone (no association), in [0,1]. */
  readonly relevance: number;
  /** activation × the seed's own confidence: what association contributes, in [0,1]. */
  readonly association: number;
  /** Orders hits of equal confidence only: salience, usefulness and tier. */
  readonly score: number;
  /** The calibrated probability that this memory is what the question asks for, to the hundredth. */
  readonly confidence: number;
  /**
   * Memories this hit stands for and that are left out of the list: a consolidated memory's originals, or the
   * consolidation an original went into (collapse.ts).
   */
  readonly represents: readonly string[];
}

export interface RecallResult {
  readonly id: string;
  readonly query: string;
  readonly hits: RankedHit[];
  readonly frame: string;
}

/** A memory offered for reflection, and why. */
export interface ReflectCandidate {
  readonly memory: MemoryRecord;
  readonly reason: string;
  readonly staleDays: number | null;
  readonly associationCount: number;
}
