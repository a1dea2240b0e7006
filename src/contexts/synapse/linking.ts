/**
 * Mechanical linking rules, as pure functions over candidates that the
 * database found through indexes. Each rule gives a score in [0,1]; a link's
 * starting strength is `mechanicalStrength(score)`. Bounds: at most
 * `linksPerType` new links per memory and type, and no link to (or from) a
 * memory that already has `maxDegree` links of that type, so a common tag,
 * person or emotion never fans out to every memory.
 */
import type { AssociationType } from '../../domain/index.js';
import { mechanicalStrength } from './strength.js';

export const MECHANICAL_TYPES = [
  'TEMPORAL',
  'THEMATIC',
  'PERSON',
  'EMOTIONAL',
] as const satisfies readonly AssociationType[];
export type MechanicalType = (typeof MECHANICAL_TYPES)[number];

export type Degrees = Readonly<Record<MechanicalType, number>>;

export interface LinkRules {
  /** TEMPORAL: same session and at most this far apart (ms). */
  readonly temporalWindowMs: number;
  readonly linksPerType: number;
  readonly maxDegree: number;
  /** THEMATIC: the least normalised text score that makes a link. */
  readonly thematicThreshold: number;
}

/** The memory being linked, as MemoryStored carried it. */
export interface LinkSubject {
  readonly id: string;
  readonly sessionId: string | null;
  readonly occurredAt: number;
  readonly people: readonly string[];
  readonly emotions: readonly string[];
  readonly degree: Degrees;
}

/** Another memory of the store that an index turned up. */
export interface Candidate {
  readonly id: string;
  readonly sessionId: string | null;
  readonly occurredAt: number;
  readonly createdAt: number;
  readonly people: readonly string[];
  readonly emotions: readonly string[];
  /** BM25 score of the thematic query, when the full-text index returned it. */
  readonly textScore: number | null;
  readonly degree: Degrees;
}

export interface LinkBatchItem {
  readonly subject: LinkSubject;
  readonly candidates: readonly Candidate[];
  /** The subject's own BM25 score for its thematic query (its best possible overlap). */
  readonly selfScore: number | null;
}

export interface PlannedLink {
  /** Canonical ends: lo < hi, so one relationship per pair and type. */
  readonly lo: string;
  readonly hi: string;
  readonly type: MechanicalType;
  readonly strength: number;
}

/** Labels as the rules compare them: trimmed and lower-cased. */
export const foldLabels = (xs: readonly string[] | null): string[] => (xs ?? []).map((x) => x.trim().toLowerCase());

const folded = (xs: readonly string[]) => new Set(foldLabels(xs));

/** |A ∩ B| / |A ∪ B| over case-folded labels. */
export function jaccard(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0; // nothing to share (often: many memories carry no emotion)
  const x = folded(a);
  const y = folded(b);
  let shared = 0;
  for (const v of x) if (y.has(v)) shared++;
  const union = x.size + y.size - shared;
  return union === 0 ? 0 : shared / union;
}

/**
 * THEMATIC: IDF-weighted overlap. Lucene's BM25 sums, over the shared terms,
 * IDF × saturated term frequency; divided by the memory's score against its own
 * query, it is the share of the memory's weighted terms the candidate shares.
 */
export function thematicScore(score: number, selfScore: number): number {
  return selfScore > 0 ? Math.min(1, score / selfScore) : 0;
}

/** TEMPORAL: 1 at the same moment, 0 at the window's edge. */
export function temporalScore(deltaMs: number, windowMs: number): number {
  return windowMs > 0 ? Math.max(0, 1 - Math.abs(deltaMs) / windowMs) : 0;
}

/** Each rule's score for one candidate; a rule that does not apply gives no entry. */
export function ruleScores(
  subject: LinkSubject,
  candidate: Candidate,
  selfScore: number | null,
  rules: LinkRules,
): Partial<Record<MechanicalType, number>> {
  const scores: Partial<Record<MechanicalType, number>> = {};
  const delta = candidate.occurredAt - subject.occurredAt;
  if (
    subject.sessionId !== null &&
    candidate.sessionId === subject.sessionId &&
    Math.abs(delta) <= rules.temporalWindowMs
  ) {
    scores.TEMPORAL = temporalScore(delta, rules.temporalWindowMs);
  }
  if (candidate.textScore !== null && selfScore !== null) {
    const score = thematicScore(candidate.textScore, selfScore);
    if (score >= rules.thematicThreshold) scores.THEMATIC = score;
  }
  const people = jaccard(subject.people, candidate.people);
  if (people > 0) scores.PERSON = people;
  const emotions = jaccard(subject.emotions, candidate.emotions);
  if (emotions > 0) scores.EMOTIONAL = emotions;
  return scores;
}

/** One key per pair and type (ends in canonical order). */
export const linkKey = (type: string, lo: string, hi: string): string => `${type}:${lo}:${hi}`;

/**
 * Plans the links of a batch, memory by memory, strongest first (ties: the
 * more recently stored candidate, then id). Degrees count links planned earlier
 * in the batch and `pending` ones (planned before, not yet in the database),
 * and a pair planned from both ends, or pending already, becomes one link.
 * Returns only the new links.
 */
export function planLinks(
  batch: readonly LinkBatchItem[],
  rules: LinkRules,
  pending: readonly PlannedLink[] = [],
): PlannedLink[] {
  const planned = new Map<string, PlannedLink>();
  const added = new Map<string, number>();
  const degree = (id: string, type: MechanicalType, base: Degrees) => base[type] + (added.get(`${type}:${id}`) ?? 0);
  const bump = (id: string, type: MechanicalType) => added.set(`${type}:${id}`, (added.get(`${type}:${id}`) ?? 0) + 1);
  const earlier = new Set<string>();
  for (const link of pending) {
    earlier.add(linkKey(link.type, link.lo, link.hi));
    bump(link.lo, link.type);
    bump(link.hi, link.type);
  }
  const baseOf = new Map<string, Degrees>();
  for (const item of batch) {
    baseOf.set(item.subject.id, item.subject.degree);
    for (const c of item.candidates) if (!baseOf.has(c.id)) baseOf.set(c.id, c.degree);
  }

  for (const { subject, candidates, selfScore } of batch) {
    const scored = candidates
      .filter((c) => c.id !== subject.id)
      .map((c) => ({ candidate: c, scores: ruleScores(subject, c, selfScore, rules) }));
    for (const type of MECHANICAL_TYPES) {
      const ranked = scored
        .filter((s) => s.scores[type] !== undefined)
        .sort(
          (x, y) =>
            (y.scores[type] as number) - (x.scores[type] as number) ||
            y.candidate.createdAt - x.candidate.createdAt ||
            // plain order: ids need no locale rules
            (x.candidate.id < y.candidate.id ? -1 : x.candidate.id > y.candidate.id ? 1 : 0),
        );
      let made = 0;
      for (const { candidate, scores } of ranked) {
        if (made >= rules.linksPerType) break;
        const [lo, hi] = subject.id < candidate.id ? [subject.id, candidate.id] : [candidate.id, subject.id];
        const key = linkKey(type, lo, hi);
        if (planned.has(key) || earlier.has(key)) {
          made++; // linked already: from the other end earlier in this batch, or pending
          continue;
        }
        if (degree(subject.id, type, baseOf.get(subject.id) as Degrees) >= rules.maxDegree) break;
        if (degree(candidate.id, type, baseOf.get(candidate.id) as Degrees) >= rules.maxDegree) continue;
        planned.set(key, { lo, hi, type, strength: mechanicalStrength(scores[type] as number) });
        bump(subject.id, type);
        bump(candidate.id, type);
        made++;
      }
    }
  }
  return [...planned.values()];
}
