/** Commands: asked of the one context that handles each, which answers (see replies.ts). */
import type { StoreRequest } from '../memory.js';
import type {
  AssociationDirection,
  AssociationType,
  MergeStrategy,
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
/** Rescore the memories of one store (or all) and ask for the tier moves their scores call for. */
export type SweepDecay = Message<'SweepDecay', { readonly store: string | null; readonly now: number }>;
/** Salience asks Hippocampus to move one memory up a tier (Hippocampus checks the tier rules). */
export type PromoteTier = Message<
  'PromoteTier',
  { readonly id: string; readonly from: Tier; readonly to: Tier; readonly salience: number }
>;
/** Salience asks Hippocampus to move one memory down a tier. */
export type DemoteTier = Message<
  'DemoteTier',
  { readonly id: string; readonly from: Tier; readonly to: Tier; readonly salience: number; readonly reason: string }
>;
/** Many tier changes at once (a decay sweep's batch); Hippocampus checks each, then writes them in one statement. */
export type TierChangeBatch = Message<'TierChangeBatch', { readonly changes: readonly (PromoteTier | DemoteTier)[] }>;
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

export type Command =
  | StoreCommand
  | ClaimCommand
  | ReclassifyCommand
  | ConsolidateCommand
  | ForgetCommand
  | ShutdownCommand
  | AssociateCommand
  | SweepDecay
  | PromoteTier
  | DemoteTier
  | TierChangeBatch
  | SessionStart
  | SessionEnd
  | StateTransition
  | LogDecision;
