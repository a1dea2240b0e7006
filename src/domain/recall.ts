/** What Recall answers its queries with: ranked hits (docs/recall.md) and reflection candidates. */
import type { MemoryRecord } from './memory.js';
import type { AssociationType, OutcomeKind, ReflectActionKind, Tier } from './tiers.js';

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
  /** 1 when the question asks when, or how many/much/long/often, and the memory holds no time or number. */
  readonly kindMiss: number;
  /** How much else the memory holds: 0 up to a long paragraph, 1 from twice that on (recall's evidence.ts). */
  readonly breadth: number;
  /** 1 when the memory involves a person the query names (namesPerson in query-text.ts), else 0. */
  readonly personMatch: number;
  /** 1 when the memory happened within a date the query names (datesNamed in query-dates.ts), else 0. */
  readonly dateMatch: number;
  /** Cosine similarity to the query's vector; null when either has none. */
  readonly similarity: number | null;
  /**
   * True when the query had a vector and this memory was looked up and has none yet (stored a moment ago, its
   * embedding still queued): its confidence then comes from the model fitted on words alone.
   */
  readonly unembedded?: boolean;
  /** How close the memory's vector stands to any question (recall's baseline.ts); absent or null: not known. */
  readonly baseline?: number | null;
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

/** Hits packed into a context budget. */
export interface Pack {
  readonly text: string;
  readonly hits: RankedHit[];
  readonly estimatedTokens: number;
  readonly dropped: number;
}

/** ContextQuery's answer: the pack, and the recall it was recorded as. */
export interface ContextPack extends Pack {
  readonly recallId: string;
}

/** A use a mind made of a recall, and how it turned out (MarkUsedCommand's and ReportOutcomeCommand's answer). */
export interface UseRecord {
  readonly id: string;
  readonly recallId: string;
  readonly memoryIds: string[];
  readonly outcome: OutcomeKind | null;
  readonly at: number;
}

/** One way a mind may answer a reflect candidate. */
export interface ReflectAction {
  readonly kind: ReflectActionKind;
  /** One line for the mind: what answering this way would do. */
  readonly description: string;
  /** RECLASSIFY: the tier it would go to. */
  readonly tier: Tier | null;
  /** ASSOCIATE: the memories it is weakly tied to; CONSOLIDATE: its near-duplicates. */
  readonly memories: readonly MemoryRecord[];
  /** For ASSOCIATE: the type each of those memories would be linked by (its weak tie's, else THEMATIC). */
  readonly associationTypes: readonly AssociationType[];
  /** FORGET: only with the mind's explicit consent (confirmId repeating the id). */
  readonly needsConsent: boolean;
}

/** A reflect candidate with the actions that fit it (ReflectQuery's answer). */
export interface ReflectCandidateWithActions extends ReflectCandidate {
  readonly actions: readonly ReflectAction[];
}
