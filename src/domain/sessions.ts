/** Sessions and decisions as Cortex keeps them and answers its lifecycle commands with (times in epoch ms). */
import type { SessionEndCause, WorkingMode } from './tiers.js';

export interface SessionRecord {
  readonly id: string;
  readonly store: string;
  readonly instanceId: string;
  readonly mindType: string;
  readonly mode: WorkingMode;
  /** When the current mode was entered (the break clock starts here). */
  readonly modeSince: number;
  readonly task: string | null;
  readonly project: string | null;
  readonly state: unknown;
  readonly startedAt: number;
  readonly lastActiveAt: number;
  readonly endedAt: number | null;
  readonly endCause: SessionEndCause | null;
  readonly endReason: string | null;
  /** How many decisions the session holds in all (a list of its decisions is bounded). */
  readonly decisionsMade: number;
}

export interface DecisionRecord {
  readonly id: string;
  readonly sessionId: string;
  readonly text: string;
  readonly rationale: string | null;
  readonly at: number;
}

/** The question a session audit asks the mind when its session ends. */
/** Sessions a list reads when the caller names no limit. */
export const DEFAULT_SESSIONS_LIMIT = 20;

export const AUDIT_PROMPT = 'Session ending. What do you refuse to lose?';
