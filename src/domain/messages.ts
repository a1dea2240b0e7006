/**
 * The message catalog: every command, query, event and notification that the
 * six contexts exchange, as readonly `{type, data, meta}` data.
 */
import { newMessageId } from './ids.js';
import type { MemoryRecord, StoreRequest } from './memory.js';
import type {
  AssociationDirection,
  AssociationOrigin,
  AssociationType,
  MergeStrategy,
  OutcomeKind,
  ReflectActionKind,
  ReflectionScope,
  SessionEndCause,
  Tier,
  WorkingMode,
} from './tiers.js';

export const CONTEXTS = ['hippocampus', 'synapse', 'salience', 'recall', 'cortex', 'subconscious'] as const;
export type ContextName = (typeof CONTEXTS)[number];

export interface Meta {
  readonly messageId: string;
  /** The message that caused this one (null for a request from outside). */
  readonly causationId: string | null;
  /** Shared by every message that follows from one outside request. */
  readonly correlationId: string;
  readonly timestamp: number;
  readonly instanceId: string | null;
  readonly sessionId: string | null;
  readonly sourceContext: ContextName;
}

export interface Message<T extends string, D> {
  readonly type: T;
  readonly data: D;
  readonly meta: Meta;
}

// ── Commands ────────────────────────────────────────────────────────────────
export type StoreCommand = Message<'StoreCommand', { readonly memories: readonly StoreRequest[] }>;
export type ClaimCommand = Message<'ClaimCommand', { readonly id: string }>;
export type ReclassifyCommand = Message<
  'ReclassifyCommand',
  { readonly id: string; readonly tier: string; readonly reason: string; readonly metadata: unknown }
>;
export type ConsolidateCommand = Message<
  'ConsolidateCommand',
  { readonly ids: readonly string[]; readonly strategy: MergeStrategy; readonly content: string | null }
>;
export type ForgetCommand = Message<
  'ForgetCommand',
  { readonly id: string; readonly confirmId: string; readonly reason: string }
>;
export type ShutdownCommand = Message<'ShutdownCommand', { readonly coldStorageDir: string | null }>;
export type AssociateCommand = Message<
  'AssociateCommand',
  {
    readonly a: string;
    readonly b: string;
    readonly type: AssociationType;
    readonly direction: AssociationDirection;
    readonly strength: number | null;
  }
>;
export type DecaySweep = Message<'DecaySweep', { readonly store: string | null; readonly now: number }>;
export type TierPromoted = Message<
  'TierPromoted',
  { readonly id: string; readonly from: Tier; readonly to: Tier; readonly salience: number }
>;
export type TierDemoted = Message<
  'TierDemoted',
  { readonly id: string; readonly from: Tier; readonly to: Tier; readonly salience: number; readonly reason: string }
>;
/** Many tier changes at once (a decay sweep's batch); Hippocampus checks each, then writes them in one statement. */
export type TierChangeBatch = Message<'TierChangeBatch', { readonly changes: readonly (TierPromoted | TierDemoted)[] }>;
export type SessionStart = Message<
  'SessionStart',
  {
    /** Chosen by the caller or the port: a retried start with the same id is a no-op. */
    readonly sessionId: string;
    readonly instanceId: string;
    readonly mindType: string;
    readonly store: string;
    readonly task: string | null;
    readonly project: string | null;
  }
>;
export type SessionEnd = Message<
  'SessionEnd',
  {
    readonly instanceId: string;
    readonly cause: SessionEndCause;
    readonly reason: string | null;
    /** A timer's end (TIMEOUT): only this session, and only if still idle since `idleBefore` (epoch ms). */
    readonly guard?: { readonly sessionId: string; readonly idleBefore: number } | null;
  }
>;
export type LogDecision = Message<
  'LogDecision',
  { readonly instanceId: string; readonly decisionId: string; readonly text: string; readonly rationale: string | null }
>;
export type StateTransition = Message<
  'StateTransition',
  { readonly instanceId: string; readonly mode: WorkingMode; readonly task: string | null; readonly context: unknown }
>;

/** memory(id): a read by id counts as an access (recorded, counted, published as MemoryAccessed). */
export type AccessCommand = Message<'AccessCommand', { readonly id: string }>;
/**
 * The stores a caller may reach (null: every store). A recall or use of a store out of reach is answered as
 * unknown.
 */
export type Reach = readonly string[] | null;
/** A mind used some of a recall's memories (null: all it offered). */
export type MarkUsedCommand = Message<
  'MarkUsedCommand',
  {
    readonly recallId: string;
    readonly memoryIds: readonly string[] | null;
    readonly action: unknown;
    readonly reach: Reach;
  }
>;
/** How a use turned out. */
export type ReportOutcomeCommand = Message<
  'ReportOutcomeCommand',
  { readonly useId: string; readonly outcome: OutcomeKind; readonly note: string | null; readonly reach: Reach }
>;

export type Command =
  | StoreCommand
  | ClaimCommand
  | ReclassifyCommand
  | ConsolidateCommand
  | ForgetCommand
  | ShutdownCommand
  | AssociateCommand
  | DecaySweep
  | TierPromoted
  | TierDemoted
  | TierChangeBatch
  | SessionStart
  | SessionEnd
  | StateTransition
  | LogDecision
  | AccessCommand
  | MarkUsedCommand
  | ReportOutcomeCommand;

// ── Queries ─────────────────────────────────────────────────────────────────
export interface SearchFilters {
  readonly tiers: readonly Tier[] | null;
  readonly from: number | null;
  readonly to: number | null;
  readonly tags: readonly string[] | null;
  readonly people: readonly string[] | null;
  readonly sessionId: string | null;
}
export type SearchQuery = Message<
  'SearchQuery',
  {
    readonly query: string;
    readonly store: string;
    readonly limit: number;
    readonly includeAssociations: boolean;
    readonly minConfidence: number | null;
    readonly filters: SearchFilters;
    /** False for a reader: the recall is answered but not recorded (a reader writes nothing). */
    readonly record: boolean;
  }
>;
/** A search packed into a context budget (contextFor). */
export type ContextQuery = Message<
  'ContextQuery',
  SearchQuery['data'] & {
    readonly sessionId: string | null;
    readonly maxTokens: number;
    readonly maxItems: number;
    readonly injectFloor: number | null;
    readonly liveFloor: number | null;
  }
>;
/** Memories by id, as stored (no access is recorded); unknown ids are left out. */
export type MemoriesQuery = Message<'MemoriesQuery', { readonly ids: readonly string[] }>;
/** A memory's audit trail, oldest first (its latest `limit` events). */
export type MemoryHistoryQuery = Message<'MemoryHistoryQuery', { readonly id: string; readonly limit: number }>;
/** A store's audit events after the event id `after` (null: from the start), in id order. */
export type MemoryEventsQuery = Message<
  'MemoryEventsQuery',
  { readonly store: string; readonly after: string | null; readonly limit: number }
>;
/** The originals a consolidated memory was made from. */
export type ConsolidatedFromQuery = Message<'ConsolidatedFromQuery', { readonly id: string }>;
/** A memory's associations (Synapse). */
export type AssociationsOfQuery = Message<
  'AssociationsOfQuery',
  {
    readonly id: string;
    readonly types?: readonly string[] | null;
    readonly minStrength?: number | null;
    readonly limit?: number;
  }
>;
/** The associations around a memory, up to `depth` hops (Synapse). */
export type NeighbourhoodOfQuery = Message<
  'NeighbourhoodOfQuery',
  { readonly id: string; readonly depth?: number; readonly types?: readonly string[] | null; readonly limit?: number }
>;
export type ReflectQuery = Message<
  'ReflectQuery',
  {
    readonly store: string;
    readonly scope: ReflectionScope;
    readonly timeSpanDays: number | null;
    readonly limit: number;
  }
>;
export type Query =
  | SearchQuery
  | ContextQuery
  | ReflectQuery
  | MemoriesQuery
  | MemoryHistoryQuery
  | MemoryEventsQuery
  | ConsolidatedFromQuery
  | AssociationsOfQuery
  | NeighbourhoodOfQuery;

// ── Events ──────────────────────────────────────────────────────────────────
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
/** Synapse has written the mechanical links of these memories (some may have got none): they wait for linking no longer. */
export type MemoriesLinked = Message<'MemoriesLinked', { readonly store: string; readonly ids: readonly string[] }>;
export type SalienceScored = Message<
  'SalienceScored',
  { readonly id: string; readonly store: string; readonly salience: number; readonly at: number }
>;
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
export type SessionState = Message<
  'SessionState',
  {
    readonly sessionId: string;
    readonly instanceId: string;
    readonly mode: WorkingMode;
    readonly startedAt: number;
    readonly lastActiveAt: number;
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
  | SalienceScored
  | AssociationsFound
  | SessionStarted
  | SessionEnded
  | ModeChanged
  | StateTransitioned
  | SessionState
  | DecisionLogged
  | ReflectionStarted
  | ReflectionAnswered;

// ── Notifications ───────────────────────────────────────────────────────────
export type BreakNotification = Message<
  'BreakNotification',
  { readonly instanceId: string; readonly sessionId: string; readonly minutesInTask: number; readonly message: string }
>;
export type SessionAuditPrompt = Message<
  'SessionAuditPrompt',
  {
    readonly instanceId: string;
    readonly sessionId: string;
    readonly prompt: string;
    readonly unclaimedIds: readonly string[];
  }
>;
export type Notification = BreakNotification | SessionAuditPrompt;

export type AnyMessage = Command | Query | Event | Notification;
export type MessageType = AnyMessage['type'];
export type MessageOf<T extends MessageType> = Extract<AnyMessage, { type: T }>;

/** Every message type by kind, as data (the catalog a reader can list). */
export const MESSAGE_CATALOG = {
  commands: [
    'StoreCommand',
    'ClaimCommand',
    'ReclassifyCommand',
    'ConsolidateCommand',
    'ForgetCommand',
    'ShutdownCommand',
    'AssociateCommand',
    'DecaySweep',
    'TierPromoted',
    'TierDemoted',
    'TierChangeBatch',
    'SessionStart',
    'SessionEnd',
    'StateTransition',
    'LogDecision',
    'AccessCommand',
    'MarkUsedCommand',
    'ReportOutcomeCommand',
  ],
  queries: [
    'SearchQuery',
    'ContextQuery',
    'ReflectQuery',
    'MemoriesQuery',
    'MemoryHistoryQuery',
    'MemoryEventsQuery',
    'ConsolidatedFromQuery',
    'AssociationsOfQuery',
    'NeighbourhoodOfQuery',
  ],
  events: [
    'MemoryStored',
    'MemoryAccessed',
    'MemoryClaimed',
    'MemoryRetrieved',
    'TierChanged',
    'MemoryReclassified',
    'MemoryForgotten',
    'MemoryConsolidated',
    'MemoryUsed',
    'OutcomeReported',
    'MemoriesEmbedded',
    'MemoriesLinked',
    'SalienceScored',
    'AssociationsFound',
    'SessionStarted',
    'SessionEnded',
    'ModeChanged',
    'StateTransitioned',
    'SessionState',
    'DecisionLogged',
    'ReflectionStarted',
    'ReflectionAnswered',
  ],
  notifications: ['BreakNotification', 'SessionAuditPrompt'],
} as const satisfies Record<string, readonly MessageType[]>;

export type MetaInit = Partial<Omit<Meta, 'messageId' | 'timestamp' | 'sourceContext'>> & {
  readonly timestamp?: number;
};

/** A fresh envelope; `cause` (if given) supplies causation and correlation. */
export function newMeta(sourceContext: ContextName, init: MetaInit & { readonly cause?: Meta } = {}): Meta {
  const messageId = newMessageId();
  const cause = init.cause;
  return {
    messageId,
    causationId: cause?.messageId ?? init.causationId ?? null,
    correlationId: cause?.correlationId ?? init.correlationId ?? messageId,
    timestamp: init.timestamp ?? Date.now(),
    instanceId: init.instanceId ?? cause?.instanceId ?? null,
    sessionId: init.sessionId ?? cause?.sessionId ?? null,
    sourceContext,
  };
}

/** Builds a message of a catalog type. */
export function message<T extends MessageType>(
  type: T,
  data: MessageOf<T>['data'],
  sourceContext: ContextName,
  init: MetaInit & { readonly cause?: Meta } = {},
): MessageOf<T> {
  return { type, data, meta: newMeta(sourceContext, init) } as MessageOf<T>;
}
