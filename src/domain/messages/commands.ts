/** Commands: asked of the one context that handles each, which answers (see replies.ts). */
import type { StoreRequest } from '../memory.js';
import type {
  AssociationDirection,
  AssociationType,
  MergeStrategy,
  OutcomeKind,
  SessionEndCause,
  Tier,
  WorkingMode,
} from '../tiers.js';
import type { Message } from './envelope.js';

export type StoreCommand = Message<'StoreCommand', { readonly memories: readonly StoreRequest[] }>;
export type ClaimCommand = Message<'ClaimCommand', { readonly id: string }>;
export type ReclassifyCommand = Message<
  'ReclassifyCommand',
  { readonly id: string; readonly tier: string; readonly reason: string; readonly metadata: unknown }
>;
export type ConsolidateCommand = Message<
  'ConsolidateCommand',
  {
    readonly ids: readonly string[];
    readonly strategy: MergeStrategy;
    readonly content: string | null;
    /** The caller's stores (absent: every store); a memory outside them is answered as unknown. */
    readonly reach?: Reach;
  }
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
    /** The caller's stores (absent: every store); a memory outside them is answered as unknown. */
    readonly reach?: Reach;
  }
>;
/** Rescore the memories of one store (or all) and ask for the tier moves their scores call for. */
export type SweepDecay = Message<'SweepDecay', { readonly store: string | null; readonly now: number }>;
/** One memory up a tier, asked of Hippocampus inside a TierChangeBatch (Hippocampus checks the tier rules). */
export type PromoteTier = Message<
  'PromoteTier',
  { readonly id: string; readonly from: Tier; readonly to: Tier; readonly salience: number }
>;
/** One memory down a tier, asked inside a TierChangeBatch. */
export type DemoteTier = Message<
  'DemoteTier',
  { readonly id: string; readonly from: Tier; readonly to: Tier; readonly salience: number; readonly reason: string }
>;
/** A tier change is never asked alone: it travels in a TierChangeBatch. */
export type TierChange = PromoteTier | DemoteTier;
/** Many tier changes at once (a decay sweep's batch); Hippocampus checks each, then writes them in one statement. */
export type TierChangeBatch = Message<'TierChangeBatch', { readonly changes: readonly TierChange[] }>;
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
  | SweepDecay
  | TierChangeBatch
  | SessionStart
  | SessionEnd
  | StateTransition
  | LogDecision
  | AccessCommand
  | MarkUsedCommand
  | ReportOutcomeCommand;
