/**
 * The graph reads that bring a search its candidates: full-text matches,
 * memories of the dates the query names, the nearest by vector through the
 * index, and memories by id under the search's filters.
 */
import { storeKeyOf, type MemoryRecord, type GraphPort, memoryFromValues } from '../../domain/index.js';
import { Q } from './cypher.js';
import { luceneQuery, withIrregularForms } from './query-text.js';
import type { FilterParams, SearchPlan } from './search-request.js';
import { baselineOf, type Reference } from './baseline.js';

/** Memories of the dates a question names that join the candidates (newest first); LoCoMo: 50 → 0.873, 100 → 0.874. */
const DATED_CANDIDATES = 100;
/** A store holding at least this share of every memory is searched by text without its key first (textMatches). */
const UNKEYED_SHARE = 0.5;
/** How long the count of every memory is trusted (it only weighs which of two exact ways is faster). */
const MEMORIES_IN_ALL_MAX_AGE_MS = 60_000;

export interface Near {
  readonly memory: MemoryRecord;
  readonly similarity: number;
  /** The memory's baseline (baseline.ts); null without a reference. */
  readonly baseline: number | null;
}

/** A memory's similarity to the query, and its baseline (null without a reference). */
export interface Closeness {
  readonly similarity: number | null;
  readonly baseline: number | null;
}

export class CandidateReads {
  private memoriesInAll: { readonly count: Promise<number>; readonly at: number } | null = null;

  constructor(
    private readonly graph: GraphPort,
    private readonly clock: () => number,
    private readonly unkeyedShare = UNKEYED_SHARE,
  ) {}

  /**
   * The full-text index's best matches of the planned terms in the store. Scoped by the store's key inside
   * Lucene, the query must walk every match of its terms: a required clause that every memory of a large store
   * matches keeps Lucene from skipping the ones that cannot make the top (in a 1M store, p50 26 ms against 9
   * without it). So a store holding most of the index is first searched without its key, for enough more
   * matches to leave `limit` of its own after the other stores' are dropped: when they do, they are the keyed
   * query's (the key scores 0, so the order is the same; memories of equal score at the cut may differ); when they
   * do not, the keyed query runs.
   */
  async textMatches(plan: SearchPlan): Promise<MemoryRecord[]> {
    if (!plan.searchText) return [];
    const terms = withIrregularForms(plan.searched);
    if (!plan.filtered) {
      const share = plan.stats.documents / Math.max(1, await this.countAll());
      if (share >= this.unkeyedShare) {
        const wanted = Math.min(2000, Math.max(plan.limit, Math.ceil((plan.limit / share) * 1.2)));
        const own = await this.fullText(luceneQuery(terms, null), wanted, plan);
        if (own.length >= plan.limit) return own.slice(0, plan.limit);
      }
    }
    return this.fullText(luceneQuery(terms, storeKeyOf(plan.request.store)), plan.limit, plan);
  }

  /** The store's memories among the index's `limit` best matches of `query`, best first, under the filters. */
  private async fullText(query: string, limit: number, plan: SearchPlan): Promise<MemoryRecord[]> {
    const rows = await this.graph.read<{ memory: unknown[]; score: number }>(Q.searchCandidates, {
      query,
      limit,
      ...plan.filters,
    });
    return rows.map((row) => memoryFromValues(row.memory));
  }

  /** Every memory of every store (the full-text index's size), counted at most once a minute. */
  private countAll(): Promise<number> {
    const now = this.clock();
    if (!this.memoriesInAll || now - this.memoriesInAll.at > MEMORIES_IN_ALL_MAX_AGE_MS) {
      const count = this.graph.read<{ count: number }>(Q.memoriesInAll, {}).then((rows) => Number(rows[0]?.count ?? 0));
      count.catch(() => (this.memoriesInAll = null));
      this.memoriesInAll = { count, at: now };
    }
    return this.memoriesInAll.count;
  }

  /** Memories that happened on the dates the query names. */
  async datedMatches(plan: SearchPlan): Promise<MemoryRecord[]> {
    if (!plan.signals.dates || plan.query.dates.length === 0) return [];
    const rows = await this.graph.read<{ memory: unknown[] }>(Q.datedMemories, {
      spans: plan.query.dates,
      limit: DATED_CANDIDATES,
      ...plan.filters,
    });
    return rows.map((row) => memoryFromValues(row.memory));
  }

  /** The originals of those of these memories that consolidation made, by consolidated memory. */
  async consolidatedOriginals(ids: readonly string[]): Promise<Map<string, string[]>> {
    if (ids.length === 0) return new Map();
    const rows = await this.graph.read<{ id: string; originals: string[] }>(Q.consolidatedOriginals, { ids: [...ids] });
    return new Map(rows.map((row) => [row.id, row.originals]));
  }

  /** Memories by id under the search's store and filters. */
  async fetch(ids: readonly string[], filters: FilterParams): Promise<Map<string, MemoryRecord>> {
    return (await this.fetchWithCloseness(ids, filters, null, null)).byId;
  }

  /**
   * Memories by id under the search's store and filters, with each one's closeness to `vector` read from its stored
   * vector in the same statement (a store searched through the index: its vectors are not in process). Without a
   * vector the closeness map is empty.
   */
  async fetchWithCloseness(
    ids: readonly string[],
    filters: FilterParams,
    vector: Float32Array | null,
    reference: Reference | null,
  ): Promise<{ byId: Map<string, MemoryRecord>; closeness: Map<string, Closeness> }> {
    const byId = new Map<string, MemoryRecord>();
    const closeness = new Map<string, Closeness>();
    if (ids.length === 0) return { byId, closeness };
    const rows = await this.graph.read<{ memory: unknown[]; similarity: number | null; reference: number | null }>(
      Q.filterMemories,
      { ids: [...ids], ...filters, vector, reference: vector ? (reference?.unit ?? null) : null },
    );
    for (const row of rows) {
      const memory = memoryFromValues(row.memory);
      byId.set(memory.id, memory);
      if (vector)
        closeness.set(memory.id, { similarity: row.similarity, baseline: baselineOf(row.reference, reference) });
    }
    return { byId, closeness };
  }

  /**
   * A large store's nearest memories through the vector index, which searches
   * this store's vectors only (the store is its filter property); the other
   * filters apply after (`want` is already larger when there are any).
   */
  async nearestInIndex(
    vector: Float32Array,
    plan: SearchPlan,
    want: number,
    reference: Reference | null,
  ): Promise<Near[]> {
    const rows = await this.graph.read<{ memory: unknown[]; similarity: number; reference: number | null }>(
      Q.vectorCandidates,
      { vector, k: want, limit: want, ...plan.filters, reference: reference?.unit ?? null },
    );
    return rows.map((row) => ({
      memory: memoryFromValues(row.memory),
      similarity: row.similarity,
      baseline: baselineOf(row.reference, reference),
    }));
  }

  /** These memories' similarity to the query's vector and their baselines, from their stored vectors. */
  async similarities(
    ids: readonly string[],
    store: string,
    vector: Float32Array,
    reference: Reference | null,
  ): Promise<Map<string, Closeness>> {
    if (ids.length === 0) return new Map();
    const rows = await this.graph.read<{ id: string; similarity: number; reference: number | null }>(Q.similarities, {
      ids: [...ids],
      store,
      vector,
      reference: reference?.unit ?? null,
    });
    return new Map(rows.map((r) => [r.id, { similarity: r.similarity, baseline: baselineOf(r.reference, reference) }]));
  }
}
