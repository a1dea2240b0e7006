/**
 * Confidence and ranking: pure functions, documented in docs/recall.md.
 *
 * Every hit gets one number, its confidence: the calibrated probability that
 * it is what the question asks for. It is built only from evidence that does
 * not depend on how many memories the store holds (evidence.ts): the cosine
 * similarity of the question's and the memory's vectors above the memory's own
 * baseline (its mean cosine to questions about nothing in particular:
 * baseline.ts), the share of the question's content words the memory
 * holds, exact matches of the numbers and names the question spells out, a
 * person or a date the question names, whether the memory holds the kind of
 * answer asked for (a time for "when", a number for "how many"), how much
 * else the memory holds (its breadth), and association — what reached the
 * memory over links from a seed, counted as that share of the seed's own
 * confidence, so a memory reached by association alone is never surer than
 * the memory that led to it.
 *
 *   direct     = σ(b + wS·(cos − baseline)·10 + wC·coverage + wE·exact + wM·exactMiss + wP·person + wD·date
 *                  + wK·kindMiss + wB·breadth)
 *   confidence = min(σ(z_direct + wA·association), max(direct, confidence of the seed))
 *
 * Hits are in descending confidence (as shown, to the hundredth); salience,
 * usefulness and tier order only hits of equal confidence, then newer first,
 * then id.
 */
import type { AssociationType, Candidate, RankedHit, Tier } from '../../domain/index.js';
import { FUSED_CALIBRATION, LEXICAL_CALIBRATION, type Calibration } from './calibration.js';
import { BASELINE_FALLBACK } from './baseline.js';

export type { Candidate, RankedHit } from '../../domain/index.js';

export interface RecallWeights {
  /** A memory found only by meaning joins the hits with at least this cosine similarity. */
  readonly similarityFloor: number;
  /** How many nearest memories by vector join the candidates. */
  readonly semanticCandidates: number;
  /** Tie-breaks among hits of equal confidence. */
  readonly salience: number;
  readonly usefulness: number;
  readonly tierBias: Readonly<Record<Tier, number>>;
  /** ARCHIVE memories are recalled only with this much confidence. */
  readonly archiveMinConfidence: number;
  /** How many of the best direct matches seed spreading activation. */
  readonly seeds: number;
  /**
   * A query term found in more than this share of the store's memories (and
   * in more than the candidate limit) is left out of the full-text search of
   * an unfiltered query (searchTerms in bm25.ts).
   */
  readonly commonTermShare: number;
  /** The association types activation follows (docs/recall.md says why). */
  readonly activationTypes: readonly AssociationType[];
}

export const DEFAULT_WEIGHTS: RecallWeights = {
  similarityFloor: 0.78,
  semanticCandidates: 40,
  salience: 0.1,
  usefulness: 0.15,
  tierBias: { IDENTITY_CORE: 0.1, ACTIVE_CONTEXT: 0.05, LONG_TERM: 0, ARCHIVE: -0.05 },
  archiveMinConfidence: 0.2,
  seeds: 10,
  commonTermShare: 0.25,
  activationTypes: ['TEMPORAL', 'CAUSAL'],
};

/** Signals switched off for ablation measurements (all on in service). */
export interface Signals {
  /** Words in common (coverage, exact matches; BM25 candidates). */
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

export const ALL_SIGNALS: Signals = {
  text: true,
  people: true,
  dates: true,
  semantic: true,
  activation: true,
  salience: true,
  usefulness: true,
};

export interface Calibrations {
  readonly lexical: Calibration;
  readonly fused: Calibration;
}
export const DEFAULT_CALIBRATIONS: Calibrations = { lexical: LEXICAL_CALIBRATION, fused: FUSED_CALIBRATION };

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** Names of the direct features, in the order of directFeatures (and of a fit's weights). */
export const DIRECT_FEATURES = [
  'similarity',
  'coverage',
  'exact',
  'exactMiss',
  'person',
  'date',
  'kindMiss',
  'breadth',
] as const;

type DirectEvidence = Pick<
  Candidate,
  'similarity' | 'baseline' | 'coverage' | 'exact' | 'exactMiss' | 'personMatch' | 'dateMatch' | 'kindMiss' | 'breadth'
>;

/**
 * The direct evidence as the calibration reads it; similarity per 0.1 of cosine above the memory's own baseline
 * (baseline.ts; 0.8 where it is not known).
 */
export function directFeatures(h: DirectEvidence): number[] {
  return [
    h.similarity === null ? 0 : (h.similarity - (h.baseline ?? BASELINE_FALLBACK)) * 10,
    h.coverage,
    h.exact,
    h.exactMiss,
    h.personMatch,
    h.dateMatch,
    h.kindMiss,
    h.breadth,
  ];
}

export function directLogit(features: readonly number[], c: Calibration): number {
  return DIRECT_FEATURES.reduce((z, name, i) => z + c[name] * (features[i] ?? 0), c.bias);
}

/**
 * Confidence from direct evidence and association. Association is the share
 * of the seed's confidence that reached the memory, and the result never
 * exceeds the larger of the memory's own confidence and the seed's.
 */
export function confidenceOf(
  features: readonly number[],
  association: number,
  seedConfidence: number,
  c: Calibration,
): number {
  const direct = sigmoid(directLogit(features, c));
  if (!(association > 0)) return direct;
  return Math.min(sigmoid(directLogit(features, c) + c.association * association), Math.max(direct, seedConfidence));
}

/** Shown (and ranked) to the hundredth: calibration is no finer than that, and equal evidence then ties. */
export const toHundredths = (x: number) => Math.round(x * 100) / 100;

/** Tier planning: archive only with enough confidence. */
export function admitted(tier: Tier, confidence: number, w: RecallWeights): boolean {
  return tier !== 'ARCHIVE' || confidence >= w.archiveMinConfidence;
}

/** Never raw database order: by confidence, then salience/usefulness/tier, then newer, then id. */
export function compareHits(a: RankedHit, b: RankedHit): number {
  return (
    b.confidence - a.confidence ||
    b.score - a.score ||
    b.memory.occurredAt - a.memory.occurredAt ||
    (a.memory.id < b.memory.id ? -1 : a.memory.id > b.memory.id ? 1 : 0)
  );
}

/**
 * `vectorQuery`: the query had a vector (the model was ready), so similarity
 * counts and the fused calibration applies (to every memory that has a vector);
 * otherwise recall is lexical.
 */
export function rank(
  candidates: readonly Candidate[],
  w: RecallWeights = DEFAULT_WEIGHTS,
  signals: Signals = ALL_SIGNALS,
  vectorQuery = false,
  calibrations: Calibrations = DEFAULT_CALIBRATIONS,
): RankedHit[] {
  const fused = vectorQuery && signals.semantic;
  // A memory without a vector yet has only its words for evidence: the lexical model is the one fitted on that, where
  // the fused one would read its missing similarity as no closer than any memory stands to any question.
  const modelOf = (c: Candidate) => (fused && !c.unembedded ? calibrations.fused : calibrations.lexical);
  const shown = candidates.map((c) => ({
    ...c,
    coverage: signals.text ? c.coverage : 0,
    exact: signals.text ? c.exact : 0,
    exactMiss: signals.text ? c.exactMiss : 0,
    kindMiss: signals.text ? c.kindMiss : 0,
    personMatch: signals.people ? c.personMatch : 0,
    dateMatch: signals.dates ? c.dateMatch : 0,
    similarity: fused ? c.similarity : null,
    activation: signals.activation ? c.activation : 0,
  }));
  const direct = new Map(shown.map((c) => [c.memory.id, sigmoid(directLogit(directFeatures(c), modelOf(c)))]));
  const hits: RankedHit[] = [];
  for (const c of shown) {
    const seed = c.via !== null && c.via !== c.memory.id ? (direct.get(c.via) ?? 0) : 0;
    const association = c.activation * seed;
    const evident =
      c.coverage > 0 ||
      c.exact > 0 ||
      c.dateMatch > 0 ||
      association > 0 ||
      (c.similarity !== null && c.similarity >= w.similarityFloor);
    if (!evident) continue;
    const relevance = direct.get(c.memory.id) ?? 0;
    const confidence = toHundredths(confidenceOf(directFeatures(c), association, seed, modelOf(c)));
    if (!admitted(c.memory.tier, confidence, w)) continue;
    const score =
      (signals.salience ? w.salience * c.salience : 0) +
      (signals.usefulness ? w.usefulness * c.usefulness : 0) +
      w.tierBias[c.memory.tier];
    hits.push({ ...c, path: association > 0 ? c.path : [], relevance, association, score, confidence, represents: [] });
  }
  return hits.sort(compareHits);
}
