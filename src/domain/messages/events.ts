/**
 * Events: what happened, published to every subscriber. Most are also kept in the audit trail as Event nodes of
 * the same type and id (catalog.ts says who consumes each, or why it is published).
 */
import type { MemoryRecord } from '../memory.js';
import type {
  AssociationOrigin,
  AssociationType,
  MergeStrategy,
  OutcomeKind,
  ReflectActionKind,
  SessionEndCause,
  Tier,
  WorkingMode,
} from '../tiers.js';
import type { Message } from './envelope.js';

export type MemoryStored = Message<'MemoryStored', { readonly memory: MemoryRecord }>;
export type MemoryAccessed = Message<
  'MemoryAccessed',
  { readonly id: string; readonly store: string; readonly at: number }
>;
export type MemoryClaimed = Message<'MemoryClaimed', { readonly id: string; readonly store: string }>;
export type MemoryRetrieved = Message<
  'MemoryRetrieved',
  { readonly recallId: string; readonly store: string; readonly ids: readonly string[]; readonly query: string }
>;
export type TierChanged = Message<
  'TierChanged',
  {
    readonly id: string;
    readonly store: string;
    readonly from: Tier;
    readonly to: Tier;
    readonly reason: string;
    readonly by: 'MIND' | 'SALIENCE';
  }
>;
export type MemoryReclassified = Message<
  'MemoryReclassified',
  { readonly id: string; readonly store: string; readonly from: Tier; readonly to: Tier; readonly reason: string }
>;
export type MemoryForgotten = Message<
  'MemoryForgotten',
  {
    readonly id: string;
    readonly store: string;
    readonly reason: string;
    /** Memories whose embedding was computed with this one's content as context: cleared, to be embedded again. */
    readonly embeddedWith: readonly string[];
  }
>;
export type MemoryConsolidated = Message<
  'MemoryConsolidated',
  { readonly memory: MemoryRecord; readonly from: readonly string[]; readonly strategy: MergeStrategy }
>;
export type MemoryUsed = Message<
  'MemoryUsed',
  { readonly useId: string; readonly recallId: string; readonly store: string; readonly memoryIds: readonly string[] }
>;
export type OutcomeReported = Message<
  'OutcomeReported',
  {
    readonly useId: string;
    readonly store: string;
    readonly memoryIds: readonly string[];
    readonly outcome: OutcomeKind;
  }
>;
/** Vectors were attached to memories of a store (by the embedding job). */
export type MemoriesEmbedded = Message<'MemoriesEmbedded', { readonly store: string; readonly ids: readonly string[] }>;
/**
 * Synapse has written the mechanical links of these memories (some may have got none): they wait for linking
 * no longer.
 */
export type MemoriesLinked = Message<'MemoriesLinked', { readonly store: string; readonly ids: readonly string[] }>;
export type AssociationsFound = Message<
  'AssociationsFound',
  {
    readonly store: string;
    readonly links: readonly {
      readonly a: string;
      readonly b: string;
      readonly type: AssociationType;
      readonly origin: AssociationOrigin;
      readonly strength: number;
    }[];
  }
>;
export type SessionStarted = Message<
  'SessionStarted',
  { readonly sessionId: string; readonly instanceId: string; readonly store: string }
>;
export type SessionEnded = Message<
  'SessionEnded',
  { readonly sessionId: string; readonly instanceId: string; readonly store: string; readonly cause: SessionEndCause }
>;
export type ModeChanged = Message<
  'ModeChanged',
  {
    readonly sessionId: string;
    readonly instanceId: string;
    readonly from: WorkingMode;
    readonly to: WorkingMode;
    readonly at: number;
  }
>;
export type StateTransitioned = Message<
  'StateTransitioned',
  { readonly sessionId: string; readonly instanceId: string; readonly mode: WorkingMode; readonly task: string | null }
>;
export type DecisionLogged = Message<
  'DecisionLogged',
  { readonly sessionId: string; readonly instanceId: string; readonly store: string; readonly decisionId: string }
>;
/** A mind opened a reflection over some of a store's memories. */
export type ReflectionStarted = Message<
  'ReflectionStarted',
  { readonly reflectionId: string; readonly store: string; readonly memoryIds: readonly string[] }
>;
/** A mind answered one reflect candidate (what it decided and why); the action itself went as its own command. */
export type ReflectionAnswered = Message<
  'ReflectionAnswered',
  {
    readonly reflectionId: string;
    readonly store: string;
    readonly memoryId: string;
    readonly action: ReflectActionKind;
    readonly why: string;
  }
>;

export type Event =
  | MemoryStored
  | MemoryAccessed
  | MemoryClaimed
  | MemoryRetrieved
  | TierChanged
  | MemoryReclassified
  | MemoryForgotten
  | MemoryConsolidated
  | MemoryUsed
  | OutcomeReported
  | MemoriesEmbedded
  | MemoriesLinked
  | AssociationsFound
  | SessionStarted
  | SessionEnded
  | ModeChanged
  | StateTransitioned
  | DecisionLogged
  | ReflectionStarted
  | ReflectionAnswered;
