/**
 * Recall: "what do I remember about X?". Direct matches from the full-text
 * index, spreading activation along associations from the best of them,
 * salience and usefulness, one combined score and a calibrated confidence per
 * hit, and a frame line that says how sure the answer is. Recall owns no
 * memories: it records recalls and uses, and reports outcomes as events.
 */
import {
  InvalidInputError,
  NotFoundError,
  sortableId,
  storeKeyOf,
  type AssociationType,
  type Bus,
  type MemoryRecord,
  type Meta,
  type OutcomeKind,
  type RecallResult,
  type ReflectCandidate,
  type ReflectionScope,
  type SearchFilters,
} from '../../domain/index.js';
import { inBackground, type GraphPort } from '../../adapters/neo4j/index.js';
import { memoryFromValues, toMemoryRecord } from '../hippocampus/index.js';
import { Q } from './cypher.js';
import {
  QUERY_STOP_WORDS,
  luceneQuery,
  namesPerson,
  queryTerms,
  stem,
  tokenize,
  withIrregularForms,
} from './query-text.js';
import { datesNamed, inSpans, type TimeSpan } from './query-dates.js';
import { bm25, documentStems, searchTerms, type StoreTermStats, type TermStats } from './bm25.js';
import { evidenceOf, questionOf, type Question } from './evidence.js';
import { StatsCache } from './stats-cache.js';
import { LruMap } from './lru.js';
import { VectorCache, DEFAULT_VECTOR_CACHE, type VectorCacheOptions } from './vector-cache.js';
import { QueryVectors, type EmbedQuery } from './query-vectors.js';
import {
  rank,
  ALL_SIGNALS,
  DEFAULT_WEIGHTS,
  type Calibrations,
  type Candidate,
  type RankedHit,
  type RecallWeights,
  type Signals,
} from './scoring.js';
import { frameLine } from './frame.js';
import { collapseConsolidated } from './collapse.js';
import { pack, DEFAULT_INJECT_FLOOR, DEFAULT_LIVE_FLOOR, type Pack } from './packing.js';

export interface Activation {
  readonly id: string;
  readonly activation: number;
  readonly path: readonly AssociationType[];
  /** The seed the path starts from. */
  readonly seed: string;
}

/** Spreading activation from seed memories (Synapse provides it). */
export type Activate = (
  store: string,
  seeds: readonly { id: string; weight: number }[],
  types: readonly AssociationType[],
) => Promise<readonly Activation[]>;

export interface RecallDeps {
  readonly graph: GraphPort;
  readonly bus: Bus;
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

export interface SearchRequest {
  readonly query: string;
  readonly store: string;
  readonly limit: number;
  readonly includeAssociations: boolean;
  readonly minConfidence: number | null;
  readonly filters: SearchFilters;
  /** Ablation only: which signals count (all, in service). */
  readonly signals?: Signals;
  /** Calibration benchmark only: the models confidence is computed with (the fitted ones, in service). */
  readonly calibrations?: Calibrations;
}

/** A search packed into a context budget (contextFor). */
export type ContextRequest = SearchRequest & {
  readonly sessionId: string | null;
  readonly maxTokens: number;
  readonly maxItems: number;
  readonly injectFloor: number | null;
  readonly liveFloor: number | null;
};

export type { RecallResult, ReflectCandidate } from '../../domain/index.js';

export interface UseRecord {
  readonly id: string;
  readonly recallId: string;
  readonly memoryIds: string[];
  readonly outcome: OutcomeKind | null;
  readonly at: number;
}

const DAY = 86_400_000;
/** Memories whose stems are kept (about 1 KB each). */
const STEMS_KEPT = 50_000;
/** Memories reached only by association that are fetched and ranked: the most activated, this many per hit asked for (at least 30). */
const REACHED_PER_HIT = 3;
/** Memories from the dates a question names that join the candidates (newest first); LoCoMo: 50 → 0.873, 100 → 0.874. */
const DATED_CANDIDATES = 100;

/** The query as candidates are scored against it: its stems (BM25, coverage), its words but stop words (the people it names) and the dates it names. */
interface QueryWords {
  readonly stems: readonly string[];
  readonly question: Question;
  readonly words: ReadonlySet<string>;
  readonly dates: readonly TimeSpan[];
}
const invalid = (code: string, text: string) => new InvalidInputError(`RECALL.${code}`, text);

export function validateSearch(query: string, limit: number, minConfidence: number | null): void {
  if (typeof query !== 'string' || query.trim() === '') throw invalid('EMPTY_QUERY', 'query must not be empty');
  if (query.length > 4000) throw invalid('QUERY_TOO_LONG', 'query must be at most 4000 characters');
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw invalid('INVALID_LIMIT', 'limit must be an integer from 1 to 100');
  if (minConfidence !== null && !(minConfidence >= 0 && minConfidence <= 1))
    throw invalid('INVALID_CONFIDENCE', 'minConfidence must be in [0,1]');
}

export class Recall {
  private readonly clock: () => number;
  private readonly weights: RecallWeights;
  private readonly pending = new Map<string, Promise<void>>();
  private readonly stats: StatsCache;
  private readonly vectors: VectorCache | null;
  private readonly queryVectors: QueryVectors | null;
  private memoryCount = { n: 0, at: -Infinity };
  /** A memory's text never changes, so its stems are computed once (most recently used kept). */
  private readonly stems = new LruMap<string, string[]>(STEMS_KEPT);

  constructor(private readonly deps: RecallDeps) {
    this.clock = deps.clock ?? Date.now;
    this.weights = deps.weights ?? DEFAULT_WEIGHTS;
    this.stats = new StatsCache(deps.graph, this.clock, 32);
    this.vectors = deps.vectors
      ? new VectorCache(deps.graph, this.clock, { ...DEFAULT_VECTOR_CACHE, ...deps.vectors }, deps.log)
      : null;
    this.queryVectors = deps.embedQuery ? new QueryVectors(deps.embedQuery) : null;
  }

  register(): this {
    this.deps.bus.handle(
      'recall',
      'SearchQuery',
      (q) => this.search(q.data, q.meta),
      (q) => q.meta.messageId,
    );
    this.deps.bus.subscribe(
      'recall',
      'MemoryStored',
      (e) => this.stats.stored(e.data.memory),
      (e) => e.data.memory.store,
    );
    this.deps.bus.subscribe(
      'recall',
      'MemoryForgotten',
      async (e) => {
        this.stats.invalidate(e.data.store);
        for (const id of [e.data.id, ...e.data.embeddedWith]) this.vectors?.forgotten(e.data.store, id);
        this.stems.delete(e.data.id); // nothing derived from forgotten content stays behind
      },
      (e) => e.data.store,
    );
    this.deps.bus.subscribe(
      'recall',
      'MemoriesEmbedded',
      (e) => this.vectors?.changed(e.data.store) ?? Promise.resolve(),
      (e) => e.data.store,
    );
    this.deps.bus.handle(
      'recall',
      'ReflectQuery',
      (q) => this.reflect(q.data.store, q.data.scope, q.data.timeSpanDays, q.data.limit),
      (q) => q.meta.messageId,
    );
    return this;
  }

  /** Ranks without recording anything (used by search and by benchmarks). */
  async rankOnly(request: SearchRequest): Promise<RankedHit[]> {
    validateSearch(request.query, request.limit, request.minConfidence);
    const now = this.clock();
    const signals = request.signals ?? ALL_SIGNALS;
    const terms = queryTerms(request.query);
    const fallback = terms.length > 0 ? terms : [...new Set(tokenize(request.query))].slice(0, 32);
    const filters = filterParams(request.store, request.filters);
    const filtered = Object.values(request.filters).some((v) => v !== null);
    const searchText = signals.text && fallback.length > 0;
    const stats = await this.stats.get(request.store);
    const wantVector = signals.semantic && this.queryVectors !== null;
    const limit = Math.min(500, Math.max(request.limit * 5, 60) * (filtered ? 4 : 1));
    // Filters pick a part of the store its term statistics do not describe: then every term is searched.
    const searched = filtered ? fallback : searchTerms(fallback, stats, this.weights.commonTermShare, limit);
    // The query is embedded while the full-text index answers and activation
    // spreads from its matches; only the nearest memories by vector wait for it.
    const embedding = wantVector ? this.queryVectors!.of(request.query) : Promise.resolve(null);
    const query: QueryWords = {
      stems: fallback.map(stem),
      question: questionOf(request.query),
      words: new Set(tokenize(request.query).filter((w) => !QUERY_STOP_WORDS.has(w))),
      dates: datesNamed(request.query),
    };
    const [direct, dated] = await Promise.all([
      searchText
        ? this.deps.graph.read<{ memory: unknown[]; score: number }>(Q.searchCandidates, {
            query: luceneQuery(withIrregularForms(searched), storeKeyOf(request.store)),
            limit,
            ...filters,
          })
        : [],
      signals.dates && query.dates.length > 0
        ? this.deps.graph.read<{ memory: unknown[] }>(Q.datedMemories, {
            spans: query.dates,
            limit: DATED_CANDIDATES,
            ...filters,
          })
        : [],
    ]);
    const candidates = new Map<string, Candidate>();
    for (const row of direct) {
      const candidate = this.candidate(memoryFromValues(row.memory), query, stats, now);
      if (candidate.textScore > 0) candidates.set(candidate.memory.id, candidate);
    }
    for (const row of dated) {
      const memory = memoryFromValues(row.memory);
      if (!candidates.has(memory.id)) candidates.set(memory.id, this.candidate(memory, query, stats, now));
    }
    const associate = request.includeAssociations && signals.activation && this.deps.activate !== undefined;
    // Seeds are the best text matches: measured on LoCoMo as good as seeds of text and meaning fused
    // (recall_any@10 0.841 against 0.840), and they need not wait for the query's vector.
    const textMatches = [...candidates.values()].filter((c) => c.textScore > 0);
    const spreading =
      associate && textMatches.length > 0 ? this.spread(request, textMatches, signals, false, filters) : null;
    spreading?.catch(() => undefined); // awaited below; a failure must not go unobserved meanwhile
    const semantic = await this.semanticMatches(request.store, embedding, candidates, stats, filters, filtered);
    const vector = semantic.vector;
    for (const [id, similarity] of semantic.similarities) {
      const known = candidates.get(id);
      if (known) candidates.set(id, { ...known, similarity });
    }
    for (const { memory, similarity } of semantic.near) {
      if (candidates.has(memory.id)) continue;
      const c = this.candidate(memory, query, stats, now);
      candidates.set(memory.id, { ...c, textScore: signals.text ? c.textScore : 0, similarity });
    }
    // Nothing matched by text: activation spreads from the nearest memories by meaning (or from the date) instead.
    const spread =
      spreading ??
      (associate && candidates.size > 0
        ? this.spread(request, [...candidates.values()], signals, vector !== null, filters)
        : null);
    if (spread) {
      const { activations, byId, weights } = await spread;
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
              ...this.candidate(memory, query, stats, now),
              ...reached,
              similarity: this.similarityOf(request.store, memory.id, vector),
            });
        }
      }
    }
    const hits = collapseConsolidated(
      rank([...candidates.values()], this.weights, signals, vector !== null, request.calibrations),
    );
    const floor = request.minConfidence ?? 0;
    return hits.filter((h) => h.confidence >= floor).slice(0, request.limit);
  }

  async search(request: SearchRequest, cause: Meta): Promise<RecallResult> {
    const hits = await this.rankOnly(request);
    const id = this.record(request.store, request.query, hits, cause);
    return {
      id,
      query: request.query,
      hits,
      frame: frameLine(
        request.query,
        hits.map((h) => h.confidence),
      ),
    };
  }

  async contextFor(request: ContextRequest, cause: Meta): Promise<Pack & { readonly recallId: string }> {
    const packed = await this.packOnly(request);
    const recallId = this.record(request.store, request.query, packed.hits, cause);
    return { ...packed, recallId };
  }

  /** contextFor's pack without recording the recall (a reader's, which writes nothing). */
  async packOnly(request: ContextRequest): Promise<Pack> {
    if (!Number.isInteger(request.maxTokens) || request.maxTokens < 16)
      throw invalid('INVALID_BUDGET', 'maxTokens must be an integer of at least 16');
    if (!Number.isInteger(request.maxItems) || request.maxItems < 1 || request.maxItems > 100)
      throw invalid('INVALID_LIMIT', 'maxItems must be from 1 to 100');
    for (const floor of [request.injectFloor, request.liveFloor]) {
      if (floor !== null && !(floor >= 0 && floor <= 1)) throw invalid('INVALID_CONFIDENCE', 'floors must be in [0,1]');
    }
    const hits = await this.rankOnly({ ...request, limit: Math.min(100, Math.max(request.maxItems * 3, 20)) });
    const injectFloor = request.injectFloor ?? DEFAULT_INJECT_FLOOR;
    return pack(hits, {
      query: request.query,
      sessionId: request.sessionId,
      maxTokens: request.maxTokens,
      maxItems: request.maxItems,
      injectFloor,
      liveFloor: Math.min(request.liveFloor ?? DEFAULT_LIVE_FLOOR, injectFloor),
    });
  }

  /** `reaches`: whether the caller may reach a store (a recall of another store is as unknown). */
  async markUsed(
    recallId: string,
    memoryIds: readonly string[] | null,
    action: unknown,
    cause: Meta,
    reaches: (store: string) => boolean = () => true,
  ): Promise<UseRecord> {
    await this.pending.get(recallId);
    const recall = (await this.deps.graph.read<{ recall: Record<string, unknown> }>(Q.getRecall, { id: recallId }))[0]
      ?.recall;
    if (!recall || !reaches(String(recall.store)))
      throw new NotFoundError('RECALL.RECALL_NOT_FOUND', `no recall with id ${recallId}`);
    const offered = (recall.hitIds as string[]) ?? [];
    const used = memoryIds === null ? offered : [...new Set(memoryIds)];
    const foreign = used.filter((id) => !offered.includes(id));
    if (foreign.length > 0) throw invalid('NOT_IN_RECALL', `recall ${recallId} did not offer ${foreign.join(', ')}`);
    const now = this.clock();
    const id = sortableId('use', now);
    const eventId = sortableId('evt', now);
    const rows = await this.deps.graph.write<{ use: Record<string, unknown> }>(Q.recordUse, {
      id,
      recallId,
      memoryIds: used,
      action: action === undefined || action === null ? null : JSON.stringify(action),
      now,
      eventId,
      payload: JSON.stringify({ useId: id, recallId, memoryIds: used }),
      correlationId: cause.correlationId,
      sessionId: cause.sessionId,
    });
    const use = toUse((rows[0] as { use: Record<string, unknown> }).use);
    this.deps.bus.publish(
      this.deps.bus.message(
        'MemoryUsed',
        { useId: id, recallId, store: String(recall.store), memoryIds: used },
        'recall',
        { cause, messageId: eventId },
      ),
    );
    return use;
  }

  async reportOutcome(
    useId: string,
    outcome: OutcomeKind,
    note: string | null,
    cause: Meta,
    reaches?: (store: string) => boolean,
  ): Promise<UseRecord> {
    if (note !== null && note.length > 4000) throw invalid('NOTE_TOO_LONG', 'note must be at most 4000 characters');
    if (reaches) {
      const known = (await this.deps.graph.read<{ use: Record<string, unknown> }>(Q.getUse, { id: useId }))[0];
      if (!known || !reaches(String(known.use.store)))
        throw new NotFoundError('RECALL.USE_NOT_FOUND', `no use with id ${useId}`);
    }
    const now = this.clock();
    const eventId = sortableId('evt', now);
    const rows = await this.deps.graph.write<{ use: Record<string, unknown> }>(Q.reportOutcome, {
      id: useId,
      outcome,
      note,
      now,
      eventId,
      payload: JSON.stringify({ useId, outcome }),
      correlationId: cause.correlationId,
      sessionId: cause.sessionId,
    });
    const row = rows[0];
    if (!row) throw new NotFoundError('RECALL.USE_NOT_FOUND', `no use with id ${useId}`);
    const use = toUse(row.use);
    const store = String(row.use.store);
    const data = { useId, store, memoryIds: use.memoryIds, outcome };
    this.deps.bus.publish(this.deps.bus.message('OutcomeReported', data, 'recall', { cause, messageId: eventId }));
    return use;
  }

  async reflect(
    store: string,
    scope: ReflectionScope,
    timeSpanDays: number | null,
    limit: number,
  ): Promise<ReflectCandidate[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > 200)
      throw invalid('INVALID_LIMIT', 'limit must be an integer from 1 to 200');
    if (timeSpanDays !== null && (!Number.isInteger(timeSpanDays) || timeSpanDays < 1))
      throw invalid('INVALID_TIME_SPAN', 'timeSpanDays must be a positive integer');
    const now = this.clock();
    const found = new Map<string, ReflectCandidate>();
    const add = (list: ReflectCandidate[]) => list.forEach((c) => found.has(c.memory.id) || found.set(c.memory.id, c));
    if (scope === 'STALE' || scope === 'ALL') add(await this.stale(store, now, timeSpanDays ?? 30, limit));
    if (scope === 'RECENT' || scope === 'ALL') add(await this.recent(store, now, timeSpanDays ?? 1, limit));
    if (scope === 'WEAK_ASSOCIATIONS' || scope === 'ALL') add(await this.weak(store, now, timeSpanDays ?? 365, limit));
    return [...found.values()].slice(0, limit);
  }

  async getUse(id: string): Promise<UseRecord | null> {
    const row = (await this.deps.graph.read<{ use: Record<string, unknown> }>(Q.getUse, { id }))[0];
    return row ? toUse(row.use) : null;
  }

  // ── internals ─────────────────────────────────────────────────────────────

  private stemsOf(memory: MemoryRecord): string[] {
    const known = this.stems.get(memory.id);
    if (known) return known;
    const doc = documentStems(memory.content, memory.tags, memory.people);
    this.stems.set(memory.id, doc);
    return doc;
  }

  /**
   * Spreading activation from the best of the direct matches (weighted by
   * how well they match), and the records of the most activated memories
   * that are not among them, under the search's filters.
   */
  private async spread(
    request: SearchRequest,
    matched: readonly Candidate[],
    _signals: Signals,
    vectorQuery: boolean,
    filters: ReturnType<typeof filterParams>,
  ): Promise<{ activations: readonly Activation[]; byId: Map<string, MemoryRecord>; weights: Map<string, number> }> {
    // Seeds: the best text matches by BM25, or without any, the nearest by meaning; weighted relative to the best.
    const strength = (c: Candidate) => (vectorQuery ? (c.similarity ?? 0) : c.textScore);
    const ordered = [...matched]
      .filter((c) => strength(c) > 0)
      .sort((a, b) => strength(b) - strength(a) || (a.memory.id < b.memory.id ? -1 : 1));
    const best = ordered.length > 0 ? strength(ordered[0]!) : 1;
    const seeds = ordered.slice(0, this.weights.seeds).map((c) => ({ id: c.memory.id, weight: strength(c) / best }));
    const weights = new Map(seeds.map((s) => [s.id, s.weight]));
    const activations = await this.deps.activate!(request.store, seeds, this.weights.activationTypes);
    const known = new Set(matched.map((c) => c.memory.id));
    // Only the most activated of the memories reached by association alone can rank (activations come most activated first).
    const reached = activations
      .filter((a) => !known.has(a.id))
      .slice(0, Math.max(30, request.limit * REACHED_PER_HIT))
      .map((a) => a.id);
    return { activations, byId: await this.fetch(reached, filters), weights };
  }

  /**
   * The query's vector (null without one), the nearest memories by it and
   * the direct candidates' (text matches', named dates') similarity to it:
   * from the store's copy in process when it is small, else from the index.
   */
  private async semanticMatches(
    store: string,
    embedding: Promise<Float32Array | null>,
    direct: ReadonlyMap<string, Candidate>,
    stats: StoreTermStats,
    filters: ReturnType<typeof filterParams>,
    filtered: boolean,
  ): Promise<{
    vector: Float32Array | null;
    near: { memory: MemoryRecord; similarity: number }[];
    similarities: Map<string, number | null>;
  }> {
    const vector = await embedding;
    if (!vector) return { vector: null, near: [], similarities: new Map() };
    const copy =
      this.vectors && !this.vectors.tooLarge(stats.documents) ? await this.vectors.get(store, stats.documents) : null;
    if (copy) {
      const similarities = new Map([...direct.keys()].map((id) => [id, copy.similarity(id, vector)] as const));
      const top = copy
        .top(vector, this.weights.semanticCandidates * (filtered ? 4 : 1))
        .filter((t) => !direct.has(t.id));
      const byId = await this.fetch(
        top.map((t) => t.id),
        filters,
      );
      const near = top.flatMap((t) => {
        const memory = byId.get(t.id);
        return memory ? [{ memory, similarity: t.similarity }] : [];
      });
      return { vector, near, similarities };
    }
    // A large store (or a small one whose copy is still loading): the vector index, beside the direct candidates' own vectors.
    const indexVector = Array.from(vector);
    const [near, similarities] = await Promise.all([
      this.nearestInIndex(indexVector, stats, filters, filtered),
      direct.size > 0
        ? this.deps.graph
            .read<{ id: string; similarity: number }>(Q.similarities, {
              ids: [...direct.keys()],
              store,
              vector: indexVector,
            })
            .then((rows) => new Map<string, number | null>(rows.map((r) => [r.id, r.similarity])))
        : new Map<string, number | null>(),
    ]);
    return { vector, near, similarities };
  }

  /**
   * A large store's nearest memories through the vector index, which spans
   * every store: it is asked for enough neighbours that about the wanted
   * number of this store's remain after filtering.
   */
  private async nearestInIndex(
    vector: number[],
    stats: StoreTermStats,
    filters: ReturnType<typeof filterParams>,
    filtered: boolean,
  ): Promise<{ memory: MemoryRecord; similarity: number }[]> {
    const want = this.weights.semanticCandidates * (filtered ? 4 : 1);
    const total = await this.totalMemories();
    const share = Math.max(stats.documents, 1) / Math.max(total, stats.documents, 1);
    const k = Math.min(
      this.vectors?.maxIndexK ?? DEFAULT_VECTOR_CACHE.maxIndexK,
      Math.max(want, Math.ceil((want / share) * 1.2)),
    );
    const rows = await this.deps.graph.read<{ memory: unknown[]; similarity: number }>(Q.vectorCandidates, {
      vector,
      k,
      limit: want,
      ...filters,
    });
    return rows.map((row) => ({ memory: memoryFromValues(row.memory), similarity: row.similarity }));
  }

  /** A memory reached by association: its similarity when its store's vectors are in process. */
  private similarityOf(store: string, id: string, vector: Float32Array | null): number | null {
    if (!vector || !this.vectors) return null;
    return this.vectors.peek(store)?.similarity(id, vector) ?? null;
  }

  /** Memories by id under the search's store and filters. */
  private async fetch(
    ids: readonly string[],
    filters: ReturnType<typeof filterParams>,
  ): Promise<Map<string, MemoryRecord>> {
    if (ids.length === 0) return new Map();
    const rows = await this.deps.graph.read<{ memory: unknown[] }>(Q.filterMemories, { ids: [...ids], ...filters });
    return new Map(rows.map((r) => memoryFromValues(r.memory)).map((m) => [m.id, m]));
  }

  /** All memories of all stores, looked up at most once a minute (the count store answers). */
  private async totalMemories(): Promise<number> {
    const now = this.clock();
    if (now - this.memoryCount.at < 60_000) return this.memoryCount.n;
    const n = Number((await this.deps.graph.read<{ n: number }>(Q.memoryCount, {}))[0]?.n ?? 0);
    this.memoryCount = { n, at: now };
    return n;
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

  /**
   * Records a recall off the answer's path: the caller gets its hits without
   * waiting for the write; markUsed waits for it, and flush() drains them all.
   */
  private record(store: string, query: string, hits: readonly RankedHit[], cause: Meta): string {
    const now = this.clock();
    const id = sortableId('rcl', now);
    const eventId = sortableId('evt', now);
    const hitIds = hits.map((h) => h.memory.id);
    // Behind the answer: a briefly full pool must not lose the record.
    const write = inBackground(() =>
      this.deps.graph.write(Q.recordRecall, {
        id,
        store,
        query,
        hitIds,
        now,
        eventId,
        payload: JSON.stringify({
          recallId: id,
          query,
          hitIds,
          confidences: hits.map((h) => Math.round(h.confidence * 1000) / 1000),
        }),
        correlationId: cause.correlationId,
        sessionId: cause.sessionId,
      }),
    )
      .then(() => {
        const data = { recallId: id, store, ids: hitIds, query };
        this.deps.bus.publish(this.deps.bus.message('MemoryRetrieved', data, 'recall', { cause, messageId: eventId }));
      })
      .catch((error: unknown) => console.error(`[recall] could not record recall ${id}:`, error))
      .finally(() => this.pending.delete(id));
    this.pending.set(id, write);
    return id;
  }

  /** Waits until every recall answered so far is recorded. */
  async flush(): Promise<void> {
    await Promise.all(this.pending.values());
  }

  private async stale(store: string, now: number, days: number, limit: number): Promise<ReflectCandidate[]> {
    const rows = await this.deps.graph.read<{ memory: Record<string, unknown>; associations: number }>(Q.reflectStale, {
      store,
      before: now - days * DAY,
      limit,
    });
    return rows.map((r) => {
      const memory = toMemoryRecord(r.memory);
      const staleDays = (now - (memory.lastAccessedAt ?? memory.createdAt)) / DAY;
      const once = memory.claimed
        ? 'claimed'
        : `accessed ${memory.accessCount} time${memory.accessCount === 1 ? '' : 's'}`;
      return {
        memory,
        staleDays,
        associationCount: r.associations,
        reason: `STALE: untouched for ${Math.floor(staleDays)} days, once ${once}; keep it (claim), link it (associate) or let it fade`,
      };
    });
  }

  private async recent(store: string, now: number, days: number, limit: number): Promise<ReflectCandidate[]> {
    const rows = await this.deps.graph.read<{ memory: Record<string, unknown>; associations: number }>(
      Q.reflectRecent,
      { store, since: now - days * DAY, limit },
    );
    return rows.map((r) => {
      const memory = toMemoryRecord(r.memory);
      const hours = (now - memory.createdAt) / 3_600_000;
      const age = hours < 48 ? `${Math.max(0, Math.round(hours))} h` : `${Math.round(hours / 24)} days`;
      return {
        memory,
        staleDays: null,
        associationCount: r.associations,
        reason: `RECENT: stored ${age} ago with ${r.associations} association${r.associations === 1 ? '' : 's'}; what does it connect to?`,
      };
    });
  }

  private async weak(store: string, now: number, days: number, limit: number): Promise<ReflectCandidate[]> {
    const rows = await this.deps.graph.read<{
      memory: Record<string, unknown>;
      associations: number;
      strongest: number;
    }>(Q.reflectWeak, {
      store,
      since: now - days * DAY,
      minLinks: 2,
      minStrength: 0.3,
      limit,
    });
    return rows.map((r) => ({
      memory: toMemoryRecord(r.memory),
      staleDays: null,
      associationCount: r.associations,
      reason:
        r.associations === 0
          ? 'WEAK_ASSOCIATIONS: linked to nothing; recall can only reach it by its words'
          : `WEAK_ASSOCIATIONS: ${r.associations} association${r.associations === 1 ? '' : 's'}, strongest ${r.strongest.toFixed(2)}`,
    }));
  }
}

function filterParams(store: string, f: SearchFilters) {
  const list = <T>(xs: readonly T[] | null) => (xs && xs.length > 0 ? xs : null);
  return {
    store,
    tiers: list(f.tiers),
    from: f.from,
    to: f.to,
    tags: list(f.tags),
    people: list(f.people),
    sessionId: f.sessionId,
  };
}

function toUse(row: Record<string, unknown>): UseRecord {
  return {
    id: String(row.id),
    recallId: String(row.recallId),
    memoryIds: Array.isArray(row.memoryIds) ? row.memoryIds.map(String) : [],
    outcome: (row.outcome as OutcomeKind | undefined) ?? null,
    at: Number(row.at),
  };
}
