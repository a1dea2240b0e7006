/**
 * The graph reads that bring a search its candidates: full-text matches,
 * memories of the dates the query names, the nearest by vector through the
 * index, and memories by id under the search's filters.
 */
import { storeKeyOf, type MemoryRecord, type GraphPort, memoryFromValues } from '../../domain/index.js';
import { Q } from './cypher.js';
import { luceneQuery, withIrregularForms } from './query-text.js';
import type { FilterParams, SearchPlan } from './search-request.js';

/** Memories of the dates a question names that join the candidates (newest first); LoCoMo: 50 → 0.873, 100 → 0.874. */
const DATED_CANDIDATES = 100;

export interface Near {
  readonly memory: MemoryRecord;
  readonly similarity: number;
}

export class CandidateReads {
  private memoryCount = { n: 0, at: -Infinity };

  constructor(
    private readonly graph: GraphPort,
    private readonly clock: () => number,
  ) {}

  /** The full-text index's matches of the planned terms. */
  async textMatches(plan: SearchPlan): Promise<MemoryRecord[]> {
    if (!plan.searchText) return [];
    const rows = await this.graph.read<{ memory: unknown[]; score: number }>(Q.searchCandidates, {
      query: luceneQuery(withIrregularForms(plan.searched), storeKeyOf(plan.request.store)),
      limit: plan.limit,
      ...plan.filters,
    });
    return rows.map((row) => memoryFromValues(row.memory));
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

  /** Memories by id under the search's store and filters. */
  async fetch(ids: readonly string[], filters: FilterParams): Promise<Map<string, MemoryRecord>> {
    if (ids.length === 0) return new Map();
    const rows = await this.graph.read<{ memory: unknown[] }>(Q.filterMemories, { ids: [...ids], ...filters });
    return new Map(rows.map((r) => memoryFromValues(r.memory)).map((m) => [m.id, m]));
  }

  /**
   * A large store's nearest memories through the vector index, which spans
   * every store: it is asked for enough neighbours that about the wanted
   * number of this store's remain after filtering.
   */
  async nearestInIndex(vector: number[], plan: SearchPlan, want: number, maxIndexK: number): Promise<Near[]> {
    const total = await this.totalMemories();
    const documents = plan.stats.documents;
    const share = Math.max(documents, 1) / Math.max(total, documents, 1);
    const k = Math.min(maxIndexK, Math.max(want, Math.ceil((want / share) * 1.2)));
    const rows = await this.graph.read<{ memory: unknown[]; similarity: number }>(Q.vectorCandidates, {
      vector,
      k,
      limit: want,
      ...plan.filters,
    });
    return rows.map((row) => ({ memory: memoryFromValues(row.memory), similarity: row.similarity }));
  }

  /** These memories' similarity to the query's vector, from their stored vectors. */
  async similarities(ids: readonly string[], store: string, vector: number[]): Promise<Map<string, number | null>> {
    if (ids.length === 0) return new Map();
    const rows = await this.graph.read<{ id: string; similarity: number }>(Q.similarities, {
      ids: [...ids],
      store,
      vector,
    });
    return new Map(rows.map((r) => [r.id, r.similarity]));
  }

  /** All memories of all stores, looked up at most once a minute (the count store answers). */
  private async totalMemories(): Promise<number> {
    const now = this.clock();
    if (now - this.memoryCount.at < 60_000) return this.memoryCount.n;
    const n = Number((await this.graph.read<{ n: number }>(Q.memoryCount, {}))[0]?.n ?? 0);
    this.memoryCount = { n, at: now };
    return n;
  }
}
