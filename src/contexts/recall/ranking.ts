/**
 * Ranking: direct matches from the full-text index and the dates the query
 * names, the nearest memories by meaning, spreading activation along
 * associations from the best of them, then one combined score and a
 * calibrated confidence per hit. It reads and records nothing else.
 */
import { IndexNotReadyError, TotalRecallError, type MemoryRecord, type GraphPort } from '../../domain/index.js';
import { namesPerson } from './query-text.js';
import { inSpans } from './query-dates.js';
import { bm25, documentStems, type TermStats } from './bm25.js';
import { evidenceOf } from './evidence.js';
import { StatsCache } from './stats-cache.js';
import { LruMap } from './lru.js';
import { VectorCache, DEFAULT_VECTOR_CACHE, type VectorCacheOptions } from './vector-cache.js';
import { QueryVectors, type EmbedQuery } from './query-vectors.js';
import { rank, DEFAULT_WEIGHTS, type Candidate, type RankedHit, type RecallWeights } from './scoring.js';
import { claimedConsolidations, collapseConsolidated } from './collapse.js';
import { CandidateReads, type Closeness, type Near } from './candidate-reads.js';
import { baselineOf, referenceOf, type Reference } from './baseline.js';
import { REFERENCE_QUESTIONS } from './reference-questions.js';
import {
  planSearch,
  validateFilters,
  validateSearch,
  type Activate,
  type Activation,
  type QueryWords,
  type SearchPlan,
  type SearchRequest,
} from './search-request.js';

/** Memories whose stems are kept (about 1 KB each). */
const STEMS_KEPT = 50_000;
/**
 * Memories reached only by association that are fetched and ranked: the most
 * activated, this many per hit asked for (at least 30).
 */
const REACHED_PER_HIT = 3;

export interface RankingDeps {
  readonly graph: GraphPort;
  readonly salienceOf: (memory: MemoryRecord, now: number) => number;
  readonly activate?: Activate;
  /** The query's vector, or null when the model is not ready (recall is lexical then). */
  readonly embedQuery?: EmbedQuery;
  /** In-process vector search for small stores (dimensions required to enable it). */
  readonly vectors?: Partial<VectorCacheOptions> & { readonly dimensions: number };
  readonly clock?: () => number;
  readonly weights?: RecallWeights;
  readonly log?: (line: string) => void;
}

/** What spreading activation gave: the activations, the memories reached only by it, and each seed's weight. */
interface Spread {
  readonly activations: readonly Activation[];
  readonly byId: Map<string, MemoryRecord>;
  /** The reached memories' closeness to the query, read with them when the store's vectors are not in process. */
  readonly closeness: Map<string, Closeness>;
  readonly weights: Map<string, number>;
}

/** Candidates by memory id; each step of the pipeline adds to them or adds a signal. */
type Candidates = Map<string, Candidate>;

export class Ranking {
  /** Per store term statistics (BM25); Recall's actor keeps them current. */
  readonly stats: StatsCache;
  /** Small stores' vectors in process (null: off); Recall's actor keeps them current. */
  readonly vectors: VectorCache | null;
  /** A memory's text never changes, so its stems are computed once (most recently used kept). */
  readonly stems = new LruMap<string, string[]>(STEMS_KEPT);
  private readonly clock: () => number;
  private readonly weights: RecallWeights;
  private readonly queryVectors: QueryVectors | null;
  private readonly reads: CandidateReads;
  /** When a search last said the vector index could not answer (said at most once a minute). */
  private toldIndexFailing = -Infinity;
  /** The reference questions' mean direction (baseline.ts): embedded once, asked again after a failure. */
  private reference: Promise<Reference | null> | null = null;

  constructor(private readonly deps: RankingDeps) {
    this.clock = deps.clock ?? Date.now;
    this.weights = deps.weights ?? DEFAULT_WEIGHTS;
    this.stats = new StatsCache(deps.graph, this.clock, 32);
    this.vectors = deps.vectors
      ? new VectorCache(deps.graph, this.clock, { ...DEFAULT_VECTOR_CACHE, ...deps.vectors }, deps.log)
      : null;
    this.queryVectors = deps.embedQuery ? new QueryVectors(deps.embedQuery) : null;
    this.reads = new CandidateReads(deps.graph, this.clock);
  }

  /** The best hits for a search, most confident first. */
  async rank(request: SearchRequest): Promise<RankedHit[]> {
    validateSearch(request.query, request.limit, request.minConfidence);
    validateFilters(request.filters);
    const now = this.clock();
    const plan = planSearch(request, await this.stats.get(request.store), this.weights, now);
    // The query is embedded while the full-text index answers and activation
    // spreads from its matches; only the nearest memories by vector wait for it.
    const embedding = this.embed(plan);
    const candidates = await this.directCandidates(plan);
    const spreading = this.spreadFromTextMatches(plan, candidates, embedding);
    const { vector, reference } = await this.addNearestByMeaning(plan, embedding, candidates);
    const spread = spreading ?? this.spreadFromAny(plan, candidates, vector);
    if (spread) this.addReachedByAssociation(plan, candidates, await spread, vector, reference);
    return this.best(plan, candidates, vector);
  }

  // ── the pipeline's steps, in order ───────────────────────────────────────

  private embed(plan: SearchPlan): Promise<Float32Array | null> {
    const wanted = plan.signals.semantic && this.queryVectors !== null;
    return wanted ? this.queryVectors!.of(plan.request.query) : Promise.resolve(null);
  }

  /** Full-text matches that score, and the memories of the dates the query names. */
  private async directCandidates(plan: SearchPlan): Promise<Candidates> {
    const [text, dated] = await Promise.all([this.reads.textMatches(plan), this.reads.datedMatches(plan)]);
    const candidates: Candidates = new Map();
    for (const memory of text) {
      const candidate = this.candidate(memory, plan.query, plan.stats, plan.now);
      if (candidate.textScore > 0) candidates.set(memory.id, candidate);
    }
    for (const memory of dated) {
      if (!candidates.has(memory.id))
        candidates.set(memory.id, this.candidate(memory, plan.query, plan.stats, plan.now));
    }
    return candidates;
  }

  private associates(plan: SearchPlan): boolean {
    return plan.request.includeAssociations && plan.signals.activation && this.deps.activate !== undefined;
  }

  /**
   * Seeds are the best text matches: measured on LoCoMo as good as seeds of text and meaning fused
   * (recall_any@10 0.841 against 0.840), and they need not wait for the query's vector.
   */
  private spreadFromTextMatches(
    plan: SearchPlan,
    candidates: Candidates,
    embedding: Promise<Float32Array | null>,
  ): Promise<Spread> | null {
    const textMatches = [...candidates.values()].filter((c) => c.textScore > 0);
    if (!this.associates(plan) || textMatches.length === 0) return null;
    const spreading = this.spread(plan, textMatches, false, embedding);
    spreading.catch(() => undefined); // awaited later; a failure must not go unobserved meanwhile
    return spreading;
  }

  /** The nearest memories by meaning join the candidates; every candidate learns its similarity. */
  private async addNearestByMeaning(
    plan: SearchPlan,
    embedding: Promise<Float32Array | null>,
    candidates: Candidates,
  ): Promise<{ vector: Float32Array | null; reference: Reference | null }> {
    const semantic = await this.semanticMatches(plan, embedding, candidates);
    for (const [id, known] of candidates) {
      // Looked up and no vector found: the memory's embedding is still on its way.
      const closeness = semantic.similarities.get(id);
      if (closeness && closeness.similarity !== null) candidates.set(id, { ...known, ...closeness });
      else if (semantic.vector) candidates.set(id, { ...known, unembedded: true });
    }
    for (const { memory, similarity, baseline } of semantic.near) {
      if (candidates.has(memory.id)) continue;
      const c = this.candidate(memory, plan.query, plan.stats, plan.now);
      candidates.set(memory.id, { ...c, textScore: plan.signals.text ? c.textScore : 0, similarity, baseline });
    }
    return { vector: semantic.vector, reference: semantic.reference };
  }

  /** Nothing matched by text: activation spreads from the nearest memories by meaning (or from the date) instead. */
  private spreadFromAny(plan: SearchPlan, candidates: Candidates, vector: Float32Array | null): Promise<Spread> | null {
    if (!this.associates(plan) || candidates.size === 0) return null;
    return this.spread(plan, [...candidates.values()], vector !== null, Promise.resolve(vector));
  }

  /** Activation joins the candidates it reached, and the memories it alone reached become candidates. */
  private addReachedByAssociation(
    plan: SearchPlan,
    candidates: Candidates,
    { activations, byId, closeness, weights }: Spread,
    vector: Float32Array | null,
    reference: Reference | null,
  ): void {
    for (const a of activations) {
      // The share of its seed's weight that reached the memory: Recall counts it against the seed's confidence.
      const level = Math.min(1, Math.max(0, a.activation / (weights.get(a.seed) ?? 1)));
      const reached = { activation: level, via: a.seed, path: a.path };
      const known = candidates.get(a.id);
      if (known) candidates.set(a.id, { ...known, ...reached });
      else {
        const memory = byId.get(a.id);
        if (memory)
          candidates.set(a.id, {
            ...this.candidate(memory, plan.query, plan.stats, plan.now),
            ...reached,
            ...this.closenessOf(plan.request.store, memory.id, vector, reference, closeness.get(a.id)),
          });
      }
    }
  }

  /** Scored, consolidated memories in place of their originals, above the floor, as many as asked for. */
  private async best(plan: SearchPlan, candidates: Candidates, vector: Float32Array | null): Promise<RankedHit[]> {
    const { request, signals } = plan;
    const ranked = rank([...candidates.values()], this.weights, signals, vector !== null, request.calibrations);
    const hits = collapseConsolidated(ranked, await this.reads.consolidatedOriginals(claimedConsolidations(ranked)));
    const floor = request.minConfidence ?? 0;
    return hits.filter((h) => h.confidence >= floor).slice(0, request.limit);
  }

  // ── what the steps use ───────────────────────────────────────────────────

  /**
   * Spreading activation from the best of the matches (weighted by how well
   * they match), and the records of the most activated memories that are
   * not among them, under the search's filters.
   */
  private async spread(
    plan: SearchPlan,
    matched: readonly Candidate[],
    vectorQuery: boolean,
    embedding: Promise<Float32Array | null>,
  ): Promise<Spread> {
    // Seeds: the best text matches by BM25, or without any, the nearest by meaning; weighted relative to the best.
    const strength = (c: Candidate) => (vectorQuery ? (c.similarity ?? 0) : c.textScore);
    const ordered = [...matched]
      .filter((c) => strength(c) > 0)
      .sort((a, b) => strength(b) - strength(a) || (a.memory.id < b.memory.id ? -1 : 1));
    const best = ordered.length > 0 ? strength(ordered[0]!) : 1;
    const seeds = ordered.slice(0, this.weights.seeds).map((c) => ({ id: c.memory.id, weight: strength(c) / best }));
    const weights = new Map(seeds.map((s) => [s.id, s.weight]));
    const activations = await this.deps.activate!(plan.request.store, seeds, this.weights.activationTypes);
    const known = new Set(matched.map((c) => c.memory.id));
    // Only the most activated of the memories reached by association alone can rank (activations come most
    // activated first).
    const reached = activations
      .filter((a) => !known.has(a.id))
      .slice(0, Math.max(30, plan.request.limit * REACHED_PER_HIT))
      .map((a) => a.id);
    // A store searched through the index: the reached memories' closeness comes with them (the question's vector is
    // usually ready by now; the spread waits for it otherwise). A copied store's comes from the copy.
    const vector = this.vectors?.peek(plan.request.store) ? null : await embedding;
    const reference = vector ? await this.referenceVector() : null;
    const fetched = await this.reads.fetchWithCloseness(reached, plan.filters, vector, reference);
    return { activations, ...fetched, weights };
  }

  /**
   * The query's vector (null without one), the nearest memories by it and
   * the direct candidates' (text matches', named dates') similarity to it:
   * from the store's copy in process when it is small, else from the index.
   */
  private async semanticMatches(
    plan: SearchPlan,
    embedding: Promise<Float32Array | null>,
    direct: ReadonlyMap<string, Candidate>,
  ): Promise<{
    vector: Float32Array | null;
    reference: Reference | null;
    near: Near[];
    similarities: Map<string, Closeness>;
  }> {
    const vector = await embedding;
    if (!vector) return { vector: null, reference: null, near: [], similarities: new Map() };
    const reference = await this.referenceVector();
    const { store } = plan.request;
    const documents = plan.stats.documents;
    const want = this.weights.semanticCandidates * (plan.filtered ? 4 : 1);
    // A store too large for a copy gets null here, and a copy kept from when it was small is dropped.
    const copy = this.vectors ? await this.vectors.get(store, documents) : null;
    if (copy) {
      const baseline = (id: string) => baselineOf(reference && copy.similarity(id, reference.unit), reference);
      const closeness = (id: string) => ({ similarity: copy.similarity(id, vector), baseline: baseline(id) });
      const similarities = new Map([...direct.keys()].map((id) => [id, closeness(id)] as const));
      const top = copy.top(vector, want).filter((t) => !direct.has(t.id));
      const byId = await this.reads.fetch(
        top.map((t) => t.id),
        plan.filters,
      );
      const near = top.flatMap((t) => {
        const memory = byId.get(t.id);
        return memory ? [{ memory, similarity: t.similarity, baseline: baseline(t.id) }] : [];
      });
      return { vector, reference, near, similarities };
    }
    // A large store (or a small one whose copy is still loading): the vector index, beside the direct candidates'
    // own vectors.
    const [near, similarities] = await Promise.all([
      this.reads.nearestInIndex(vector, plan, want, reference).catch((error: unknown) => this.withoutIndex(error)),
      this.reads.similarities([...direct.keys()], store, vector, reference),
    ]);
    return { vector, reference, near, similarities };
  }

  /**
   * The vector index could not answer: it is being built (after an upgrade changed it; health says why), or Neo4j
   * failed inside its search (seen once under a test load: "Index 33554431 out of bounds for length 1" from a filtered
   * search of an index holding a few vectors). This search then gets no memories found by meaning alone, and its word,
   * date and association matches still get their similarity; the log says why, once a minute. The service's own
   * failures (Neo4j unavailable, busy, shutting down) still fail the search.
   */
  private withoutIndex(error: unknown): Near[] {
    if (!(error instanceof Error) || (error instanceof TotalRecallError && !(error instanceof IndexNotReadyError)))
      throw error;
    const now = this.clock();
    if (now - this.toldIndexFailing > 60_000) {
      const why = error instanceof IndexNotReadyError ? error.message : `the vector index failed (${error.message})`;
      this.deps.log?.(`recall: ${why}; searching without it`);
      this.toldIndexFailing = now;
    }
    return [];
  }

  /**
   * A memory reached by association: its similarity and baseline as `read` with it (a store searched through the
   * index) or from the store's vectors in process, and `unembedded` when it was looked up and has no vector yet.
   */
  private closenessOf(
    store: string,
    id: string,
    vector: Float32Array | null,
    reference: Reference | null,
    read?: Closeness,
  ): Closeness & { unembedded?: boolean } {
    if (vector && read) return read.similarity === null ? { ...read, unembedded: true } : read;
    const copy = vector && this.vectors ? this.vectors.peek(store) : undefined;
    const similarity = (vector && copy?.similarity(id, vector)) ?? null;
    const cosine = reference ? (copy?.similarity(id, reference.unit) ?? null) : null;
    const closeness = { similarity, baseline: baselineOf(cosine, reference) };
    return copy && similarity === null ? { ...closeness, unembedded: true } : closeness;
  }

  /**
   * The reference questions' mean direction (baseline.ts), embedded by the model once per process; the first
   * search with a vector waits for it. Null when the model did not answer them all (asked again next time).
   */
  private referenceVector(): Promise<Reference | null> {
    const embed = this.deps.embedQuery;
    if (!embed) return Promise.resolve(null);
    this.reference ??= Promise.all(REFERENCE_QUESTIONS.map((q) => embed(q)))
      .then(
        (vectors) => (vectors.every((v) => v !== null) ? referenceOf(vectors as Float32Array[]) : null),
        () => null,
      )
      .then((reference) => {
        if (reference === null) this.reference = null;
        return reference;
      });
    return this.reference;
  }

  private candidate(memory: MemoryRecord, query: QueryWords, stats: TermStats, now: number): Candidate {
    const doc = this.stemsOf(memory);
    return {
      memory,
      textScore: bm25(query.stems, doc, stats),
      ...evidenceOf(query.question, doc),
      personMatch: namesPerson(query.words, memory.people) ? 1 : 0,
      dateMatch: inSpans(memory.occurredAt, query.dates),
      similarity: null,
      activation: 0,
      via: null,
      path: [],
      salience: this.deps.salienceOf(memory, now),
      usefulness: memory.usefulness,
    };
  }

  private stemsOf(memory: MemoryRecord): string[] {
    const known = this.stems.get(memory.id);
    if (known) return known;
    const doc = documentStems(memory.content, memory.tags, memory.people);
    this.stems.set(memory.id, doc);
    return doc;
  }
}
