import {
  parseJsonText,
  type DecisionRecord,
  type NotificationKind,
  type SessionEndCause,
  type SessionRecord,
  type WorkingMode,
} from '../../domain/index.js';
/** Session, decision and notification records as Cortex keeps them (times in epoch ms). */

export type { DecisionRecord, SessionRecord } from '../../domain/index.js';

export interface NotificationRecord {
  readonly id: string;
  readonly kind: NotificationKind;
  readonly store: string | null;
  readonly instanceId: string;
  readonly sessionId: string | null;
  readonly message: string;
  readonly at: number;
  readonly payload: unknown;
}

const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

const parseJson = parseJsonText;

export function toSessionRecord(row: Record<string, unknown>): SessionRecord {
  return {
    id: String(row.id),
    store: String(row.store),
    instanceId: String(row.instanceId),
    mindType: String(row.mindType),
    mode: row.mode as WorkingMode,
    modeSince: num(row.modeSince) ?? num(row.startedAt) ?? 0,
    task: str(row.task),
    project: str(row.project),
    state: parseJson(row.state),
    startedAt: num(row.startedAt) ?? 0,
    lastActiveAt: num(row.lastActiveAt) ?? num(row.startedAt) ?? 0,
    endedAt: num(row.endedAt),
    endCause: (str(row.endCause) as SessionEndCause | null) ?? null,
    endReason: str(row.endReason),
    decisionsMade: num(row.decisionsMade) ?? 0,
  };
}

export function toDecisionRecord(row: Record<string, unknown>): DecisionRecord {
  return {
    id: String(row.id),
    sessionId: String(row.sessionId),
    text: String(row.text),
    rationale: str(row.rationale),
    at: num(row.at) ?? 0,
  };
}

export function toNotificationRecord(row: Record<string, unknown>): NotificationRecord {
  return {
    id: String(row.id),
    kind: row.kind as NotificationKind,
    store: str(row.store),
    instanceId: String(row.instanceId),
    sessionId: str(row.sessionId),
    message: String(row.message ?? ''),
    at: num(row.at) ?? 0,
    payload: parseJson(row.payload),
  };
}
