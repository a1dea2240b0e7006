/**
 * Ranking and confidence: pure functions, documented in docs/recall.md.
 *
 *   relevance = (1 − wV)·lexical + wV·semantic      (lexical alone without a query vector)
 *   score     = relevance + wA·activation + wP·person + wD·date + wS·salience + wU·usefulness + tierBias
 *
 * lexical is the BM25 score relative to the query's best direct match, and
 * semantic the cosine similarity to the query's vector above a floor,
 * relative to the best one (both in [0,1]); activation is what spreading
 * activation over associations delivered (in [0,1]); person is 1 when the
 * memory involves a person the query names (else 0); date is 1 when it
 * happened on a day or in a month the query names (else 0); salience is the score
 * decayed to now; usefulness in [-1,1] comes from reported outcomes.
 * Confidence is a separate, calibrated probability that the hit is what was
 * asked for: a logistic model over absolute features, fitted on LoCoMo
 * (npm run bench:locomo -- --calibrate), one model for queries with a vector
 * and one for lexical-only queries (the model missing or off).
 */
import type { AssociationType, MemoryRecord, Tier } from '../../domain/index.js';
import { FUSED_CALIBRATION, LEXICAL_CALIBRATION, type Calibration } from './calibration.js';

export interface Candidate {
  readonly memory: MemoryRecord;
  /** Raw BM25 score; 0 when the memory was reached by association only. */
  readonly textScore: number;
  /** Share of the query's stems present in the memory. */
  readonly coverage: number;
  /** 1 when the memory involves a person the query names (namesPerson in query-text.ts), else 0. */
  readonly personMatch: number;
  /** 1 when the memory happened within a date the query names (datesNamed in query-dates.ts), else 0. */
  readonly dateMatch: number;
  /** Cosine similarity to the query's vector; null when either has none. */
  readonly similarity: number | null;
  readonly activation: number;
  readonly path: readonly AssociationType[];
  readonly salience: number;
  readonly usefulness: number;
}

export interface RankedHit extends Candidate {
  /** BM25 relative to the best direct match, in [0,1]. */
  readonly lexical: number;
  /** Similarity above the floor relative to the best, in [0,1]. */
  readonly semantic: number;
  /** The direct match, text and meaning fused, in [0,1]. */
  readonly relevance: number;
  readonly score: number;
  readonly confidence: number;
}

export interface RecallWeights {
  /** wV: the share of meaning in relevance (the rest is text). */
  readonly semantic: number;
  /** Cosine similarity at or below this counts as no semantic match. */
  readonly similarityFloor: number;
  /** How many nearest memories by vector join the candidates. */
  readonly semanticCandidates: number;
  /** wA when the query has a vector: a memory's vector already carries its session context (embedding-text.ts), so association counts less. */
  readonly activation: number;
  /** wA of a lexical ranking (no query vector): words alone miss the context that activation brings. */
  readonly lexicalActivation: number;
  /** wP: a memory that involves a person the query names, when the query has a vector (a memory's vector already carries who spoke). */
  readonly person: number;
  /** wP of a lexical ranking (no query vector). */
  readonly lexicalPerson: number;
  /** wD: a memory that happened on a day or in a month the query names. */
  readonly date: number;
  readonly salience: number;
  readonly usefulness: number;
  readonly tierBias: Readonly<Record<Tier, number>>;
  /** ARCHIVE memories are recalled only with this much relevance… */
  readonly archiveMinRelevance: number;
  /** …or this much association signal. */
  readonly archiveMinActivation: number;
  /** How many of the best direct matches seed spreading activation. */
  readonly seeds: number;
  /**
   * A query term found in more than this share of the store's memories (and
   * in more than the candidate limit) is left out of the full-text search of
   * an unfiltered query; it still counts in the BM25 score of what the other
   * terms find (searchTerms in bm25.ts).
   */
  readonly commonTermShare: number;
  /** The association types activation follows (docs/recall.md says why). */
  readonly activationTypes: readonly AssociationType[];
}

export const DEFAULT_WEIGHTS: RecallWeights = {
  semantic: 0.5,
  similarityFloor: 0.78,
  semanticCandidates: 40,
  activation: 1.75,
  lexicalActivation: 3.0,
  person: 0.35,
  lexicalPerson: 0.5,
  date: 0.5,
  salience: 0.1,
  usefulness: 0.15,
  tierBias: { IDENTITY_CORE: 0.1, ACTIVE_CONTEXT: 0.05, LONG_TERM: 0, ARCHIVE: -0.05 },
  archiveMinRelevance: 0.5,
  archiveMinActivation: 0.3,
  seeds: 10,
  commonTermShare: 0.25,
  activationTypes: ['TEMPORAL', 'CAUSAL'],
};

/** Signals switched off for ablation measurements (all on in service). */
export interface Signals {
  /** Full-text matches (BM25). */
  readonly text: boolean;
  /** Memories that involve a person the query names. */
  readonly people: boolean;
  /** Memories that happened on a date the query names. */
  readonly dates: boolean;
  /** Vector similarity (when the query has a vector). */
  readonly semantic: boolean;
  readonly activation: boolean;
  readonly salience: boolean;
  readonly usefulness: boolean;
}

export const ALL_SIGNALS: Signals = { text: true, people: true, dates: true, semantic: true, activation: true, salience: true, usefulness: true };

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/**
 * The absolute features confidence is computed from (the calibration's inputs,
 * in its order). Similarity enters as its height above the floor on the
 * scale to 1 — absolute, so it means the same in every query, and spread over
 * [0,1] rather than e5's narrow band of raw cosines.
 */
export function confidenceFeatures(
  h: { lexical: number; coverage: number; activation: number; textScore: number; similarity: number | null; personMatch: number },
  floor = DEFAULT_WEIGHTS.similarityFloor,
): number[] {
  const above = h.similarity === null ? 0 : Math.min(1, Math.max(0, (h.similarity - floor) / (1 - floor)));
  return [h.lexical, h.coverage, h.activation, Math.log1p(h.textScore), above, h.personMatch];
}

export function confidenceOf(features: readonly number[], c: Calibration): number {
  const [lexical = 0, coverage = 0, activation = 0, logText = 0, similarity = 0, person = 0] = features;
  const z = c.bias + c.relevance * lexical + c.coverage * coverage + c.activation * activation + c.textScore * logText + c.similarity * similarity + c.person * person;
  return sigmoid(z);
}

/** Similarity above the floor, relative to the best candidate's, in [0,1]. */
export function semanticOf(similarity: number | null, best: number, floor: number): number {
  if (similarity === null || best <= floor) return 0;
  return Math.min(1, Math.max(0, (similarity - floor) / (best - floor)));
}

/** Tier planning: archive only with enough relevance or association signal. */
export function admitted(tier: Tier, relevance: number, activation: number, w: RecallWeights): boolean {
  return tier !== 'ARCHIVE' || relevance >= w.archiveMinRelevance || activation >= w.archiveMinActivation;
}

/** Never raw database order: by score, then confidence, then newer, then id. */
export function compareHits(a: RankedHit, b: RankedHit): number {
  return b.score - a.score || b.confidence - a.confidence || b.memory.occurredAt - a.memory.occurredAt || (a.memory.id < b.memory.id ? -1 : a.memory.id > b.memory.id ? 1 : 0);
}

/**
 * `vectorQuery`: the query had a vector (the model was ready), so similarity
 * counts and the fused calibration applies; otherwise ranking is lexical.
 */
export function rank(
  candidates: readonly Candidate[],
  w: RecallWeights = DEFAULT_WEIGHTS,
  signals: Signals = ALL_SIGNALS,
  vectorQuery = false,
  calibration: { readonly lexical: Calibration; readonly fused: Calibration } = { lexical: LEXICAL_CALIBRATION, fused: FUSED_CALIBRATION },
): RankedHit[] {
  const fused = vectorQuery && signals.semantic;
  const bestText = signals.text ? Math.max(0, ...candidates.map((c) => c.textScore)) : 0;
  const bestSimilarity = fused ? Math.max(w.similarityFloor, ...candidates.map((c) => c.similarity ?? -1)) : 0;
  const share = fused ? (signals.text ? w.semantic : 1) : 0;
  const model = fused ? calibration.fused : calibration.lexical;
  const activationWeight = fused ? w.activation : w.lexicalActivation;
  const personWeight = fused ? w.person : w.lexicalPerson;
  const hits: RankedHit[] = [];
  for (const c of candidates) {
    const lexical = bestText > 0 ? c.textScore / bestText : 0;
    const semantic = fused ? semanticOf(c.similarity, bestSimilarity, w.similarityFloor) : 0;
    const relevance = (1 - share) * lexical + share * semantic;
    const activation = signals.activation ? c.activation : 0;
    const dated = signals.dates && c.dateMatch > 0;
    // A memory from a date the question names needs no word or meaning in common ("what happened on 3 June 2023?").
    if (relevance === 0 && activation === 0 && !dated) continue;
    if (!admitted(c.memory.tier, relevance, activation, w)) continue;
    const score =
      relevance +
      activationWeight * activation +
      (signals.people ? personWeight * c.personMatch : 0) +
      (signals.dates ? w.date * c.dateMatch : 0) +
      (signals.salience ? w.salience * c.salience : 0) +
      (signals.usefulness ? w.usefulness * c.usefulness : 0) +
      w.tierBias[c.memory.tier];
    const shown = { ...c, activation, lexical, semantic, similarity: fused ? c.similarity : null, personMatch: signals.people ? c.personMatch : 0 };
    const confidence = confidenceOf(confidenceFeatures(shown, w.similarityFloor), model);
    hits.push({ ...shown, relevance, score, confidence });
  }
  return hits.sort(compareHits);
}

