/** A reflection as Cortex keeps it: the candidates as offered, and the mind's answers. */
import {
  parseJsonText,
  type AssociationType,
  type MergeStrategy,
  type ReflectActionKind,
  type Tier,
} from '../../domain/index.js';
import type { ReflectCandidateWithActions } from '../../domain/index.js';

/** One offered action as stored on the Reflection node (memories by id). */
export interface OfferedAction {
  readonly kind: ReflectActionKind;
  readonly description: string;
  readonly tier: Tier | null;
  readonly memoryIds: readonly string[];
  readonly associationTypes: readonly AssociationType[];
  readonly needsConsent: boolean;
}

export interface OfferedCandidate {
  readonly memoryId: string;
  readonly reason: string;
  readonly staleDays: number | null;
  readonly associationCount: number;
  readonly actions: readonly OfferedAction[];
}

export interface ReflectionAnswerRecord {
  readonly id: string;
  readonly reflectionId: string;
  readonly memoryId: string;
  readonly action: ReflectActionKind;
  readonly why: string;
  readonly at: number;
  /** The memory the answer left (the consolidation for CONSOLIDATE, null after FORGET or KEEP). */
  readonly resultMemoryId: string | null;
  /** Every memory the answer involved besides the candidate (ASSOCIATE, CONSOLIDATE). */
  readonly with: readonly string[];
}

export interface ReflectionRecord {
  readonly id: string;
  readonly store: string;
  readonly instanceId: string | null;
  readonly sessionId: string | null;
  readonly startedAt: number;
  readonly offered: readonly OfferedCandidate[];
  readonly answers: readonly ReflectionAnswerRecord[];
}

/**
 * A reflection with its candidates' memories read again (a forgotten one drops out of `candidates`, never out of
 * `offered`).
 */
export interface ReflectionView extends ReflectionRecord {
  readonly candidates: readonly ReflectCandidateWithActions[];
  /** Candidates (those still there) not answered yet. */
  readonly remaining: number;
  /** The first candidate without an answer (null when every one has one). */
  readonly next: ReflectCandidateWithActions | null;
}

/** What the mind may send with its answer; each action reads only the fields it needs. */
export interface ReflectAnswerArgs {
  readonly reflectionId: string;
  readonly memoryId: string;
  readonly action: ReflectActionKind;
  readonly why: string;
  /** RECLASSIFY: the tier (default: the one offered). */
  readonly tier?: Tier | null;
  /** ASSOCIATE / CONSOLIDATE: the other memories (default: the ones offered). */
  readonly with?: readonly string[] | null;
  /** ASSOCIATE: the type of every new link (default: each offered memory's own). */
  readonly associationType?: AssociationType | null;
  /** CONSOLIDATE (default COMBINE; SUMMARIZE needs content). */
  readonly strategy?: MergeStrategy | null;
  readonly content?: string | null;
  /** FORGET: the consent, repeating memoryId. */
  readonly confirmId?: string | null;
}

export function offeredFrom(candidates: readonly ReflectCandidateWithActions[]): OfferedCandidate[] {
  return candidates.map((c) => ({
    memoryId: c.memory.id,
    reason: c.reason,
    staleDays: c.staleDays,
    associationCount: c.associationCount,
    actions: c.actions.map((a) => ({
      kind: a.kind,
      description: a.description,
      tier: a.tier,
      memoryIds: a.memories.map((m) => m.id),
      associationTypes: a.associationTypes,
      needsConsent: a.needsConsent,
    })),
  }));
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

export function toReflectionRecord(
  row: Record<string, unknown>,
  answers: readonly Record<string, unknown>[],
): ReflectionRecord {
  return {
    id: String(row.id),
    store: String(row.store),
    instanceId: typeof row.instanceId === 'string' ? row.instanceId : null,
    sessionId: typeof row.sessionId === 'string' ? row.sessionId : null,
    startedAt: num(row.startedAt),
    offered: (parseJsonText(row.candidates) as OfferedCandidate[] | null) ?? [],
    answers: answers.map(toAnswerRecord),
  };
}

export function toAnswerRecord(row: Record<string, unknown>): ReflectionAnswerRecord {
  const payload = (parseJsonText(row.payload) ?? {}) as Partial<ReflectionAnswerRecord>;
  return {
    id: String(row.id),
    reflectionId: String(payload.reflectionId ?? ''),
    memoryId: String(row.memoryId ?? payload.memoryId ?? ''),
    action: payload.action as ReflectActionKind,
    why: String(payload.why ?? ''),
    at: num(row.at),
    resultMemoryId: payload.resultMemoryId ?? null,
    with: payload.with ?? [],
  };
}
