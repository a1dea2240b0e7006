/**
 * Which answers fit a reflect candidate: pure rules, tested without a
 * database. Recall only proposes; the mind decides, and only Hippocampus and
 * Synapse change anything (through the commands the answer becomes).
 */
import type { AssociationType, MemoryRecord, Tier, ReflectAction } from '../../domain/index.js';

/** Why a memory was surfaced (the scope that found it). */
const KEPT = '(the originals are kept)';

export type ReflectKind = 'STALE' | 'RECENT' | 'WEAK_ASSOCIATIONS';

export interface WeakTie {
  readonly type: AssociationType;
  readonly strength: number;
  readonly memory: MemoryRecord;
}

/** What the graph says about a candidate's ties. */
export interface CandidateTies {
  /** Existing associations below the weak threshold, weakest first. */
  readonly weak: readonly WeakTie[];
  /** Memories near it by text that it is not linked to at all. */
  readonly near: readonly MemoryRecord[];
  /** Near-duplicates (strong mechanical THEMATIC links), not consolidated yet. */
  readonly duplicates: readonly MemoryRecord[];
}

export type { ReflectAction } from '../../domain/index.js';

export const WEAK_BELOW = 0.3;
/** Most memories offered for one ASSOCIATE or CONSOLIDATE. */
export const MOST_OFFERED = 5;

/** The reflect reason's scope (its first word, as Recall writes it). */
export function reflectKindOf(reason: string): ReflectKind {
  if (reason.startsWith('STALE')) return 'STALE';
  if (reason.startsWith('RECENT')) return 'RECENT';
  return 'WEAK_ASSOCIATIONS';
}

/**
 * The tier a reclassification would suggest: out of the archive and out of
 * the session's working set into long term; a long-term memory that went
 * stale or stayed unconnected into the archive, unless claimed (then, or when
 * fresh, the identity core is the question worth asking); an identity-core
 * memory back to long term. Only the mind's reclassify moves anything.
 */
export function suggestedTier(memory: MemoryRecord, kind: ReflectKind): Tier {
  switch (memory.tier) {
    case 'ARCHIVE':
    case 'ACTIVE_CONTEXT':
    case 'IDENTITY_CORE':
      return 'LONG_TERM';
    case 'LONG_TERM':
      return memory.claimed || kind === 'RECENT' ? 'IDENTITY_CORE' : 'ARCHIVE';
    default: {
      const never: never = memory.tier;
      return never;
    }
  }
}

const quote = (m: MemoryRecord) => {
  const text = m.content.replace(/\s+/g, ' ').trim();
  return `“${text.length > 60 ? `${text.slice(0, 59)}…` : text}”`;
};

/** The answers that fit a candidate, in the order a mind would weigh them; KEEP always comes last. */
export function fittingActions(memory: MemoryRecord, kind: ReflectKind, ties: CandidateTies): ReflectAction[] {
  const actions: ReflectAction[] = [];
  const base = { tier: null, memories: [], associationTypes: [], needsConsent: false } as const;
  const core = memory.tier === 'IDENTITY_CORE';
  if (!memory.claimed && !core) {
    actions.push({
      ...base,
      kind: 'CLAIM',
      description: 'claim it: it matters to you, so it fades several times slower',
    });
  }
  const tier = suggestedTier(memory, kind);
  actions.push({
    ...base,
    kind: 'RECLASSIFY',
    tier,
    description: `reclassify it from ${memory.tier} to ${tier} (say why)`,
  });
  const weak = ties.weak.slice(0, MOST_OFFERED);
  const weakIds = new Set(weak.map((t) => t.memory.id));
  const near = ties.near.filter((m) => !weakIds.has(m.id)).slice(0, Math.max(0, MOST_OFFERED - weak.length));
  if (weak.length + near.length > 0) {
    actions.push({
      ...base,
      kind: 'ASSOCIATE',
      memories: [...weak.map((t) => t.memory), ...near],
      associationTypes: [...weak.map((t) => t.type), ...near.map(() => 'THEMATIC' as const)],
      description: `associate it with what it is only weakly tied to: ${[
        ...weak.map((t) => `${quote(t.memory)} (${t.type} ${t.strength.toFixed(2)})`),
        ...near.map((m) => `${quote(m)} (not linked)`),
      ].join(', ')}`,
    });
  }
  const duplicates = ties.duplicates.slice(0, MOST_OFFERED);
  if (duplicates.length > 0) {
    actions.push({
      ...base,
      kind: 'CONSOLIDATE',
      memories: duplicates,
      description: `consolidate it with its near-duplicates ${duplicates.map(quote).join(', ')} ${KEPT}`,
    });
  }
  if (!memory.claimed && !core) {
    actions.push({
      ...base,
      kind: 'FORGET',
      needsConsent: true,
      description:
        'forget it for good: only with your explicit consent (confirmId repeats its id); a tombstone stays in the ' +
        'trail',
    });
  }
  actions.push({ ...base, kind: 'KEEP', description: 'leave it as it is (your answer is still recorded)' });
  return actions;
}
