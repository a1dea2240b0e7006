/** Records as the MCP tools return them: plain JSON, times as ISO-8601, scores included. */
import type { MemoryRecord } from '../../domain/index.js';
import type { AssociationView, DecisionRecord, SessionRecord } from '../../contexts/cortex/index.js';
import type { RankedHit, ReflectCandidate, UseRecord } from '../../contexts/recall/index.js';

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

export type SalienceOf = (memory: MemoryRecord) => number;

export function memoryView(m: MemoryRecord, salienceOf: SalienceOf) {
  return {
    id: m.id,
    store: m.store,
    content: m.content,
    tier: m.tier,
    claimed: m.claimed,
    tags: [...m.tags],
    people: [...m.people],
    emotions: [...m.emotions],
    ...(m.metadata === null || m.metadata === undefined ? {} : { metadata: m.metadata }),
    occurredAt: iso(m.occurredAt),
    createdAt: iso(m.createdAt),
    lastAccessedAt: isoOrNull(m.lastAccessedAt),
    accessCount: m.accessCount,
    salience: salienceOf(m),
    usefulness: m.usefulness,
    sessionId: m.sessionId,
  };
}

export function hitView(h: RankedHit, salienceOf: SalienceOf) {
  return {
    memory: memoryView(h.memory, salienceOf),
    confidence: h.confidence,
    score: h.score,
    relevance: h.relevance,
    coverage: h.coverage,
    similarity: h.similarity,
    activation: h.activation,
    association: h.association,
    path: [...h.path],
    represents: [...h.represents],
  };
}

export function associationView(a: AssociationView, salienceOf: SalienceOf) {
  return {
    seenFrom: a.seenFrom,
    type: a.type,
    origin: a.origin,
    strength: a.strength,
    hop: a.hop,
    createdAt: iso(a.createdAt),
    updatedAt: iso(a.updatedAt),
    other: memoryView(a.other, salienceOf),
  };
}

export function sessionView(s: SessionRecord) {
  return {
    id: s.id,
    store: s.store,
    instanceId: s.instanceId,
    mindType: s.mindType,
    mode: s.mode,
    modeSince: iso(s.modeSince),
    task: s.task,
    project: s.project,
    ...(s.state === null || s.state === undefined ? {} : { state: s.state }),
    startedAt: iso(s.startedAt),
    lastActiveAt: iso(s.lastActiveAt),
    endedAt: isoOrNull(s.endedAt),
    endCause: s.endCause,
    endReason: s.endReason,
    decisionsMade: s.decisionsMade,
  };
}

export function decisionView(d: DecisionRecord) {
  return { id: d.id, sessionId: d.sessionId, text: d.text, rationale: d.rationale, at: iso(d.at) };
}

export function useView(u: UseRecord) {
  return { id: u.id, recallId: u.recallId, memoryIds: [...u.memoryIds], outcome: u.outcome, at: iso(u.at) };
}

export function reflectView(c: ReflectCandidate, salienceOf: SalienceOf) {
  return {
    memory: memoryView(c.memory, salienceOf),
    reason: c.reason,
    staleDays: c.staleDays,
    associationCount: c.associationCount,
  };
}

/** One line per hit, as a model or a person reads it: confidence, date, id, content. */
export function hitLine(h: {
  memory: { id: string; content: string; occurredAt: string };
  confidence: number;
}): string {
  const day = h.memory.occurredAt.slice(0, 10);
  return `[${Math.round(h.confidence * 100)}% · ${day} · ${h.memory.id}] ${h.memory.content}`;
}
