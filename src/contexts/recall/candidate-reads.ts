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
  constructor(private readonly graph: GraphPort) {}

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
   * A large store's nearest memories through the vector index, which searches
   * this store's vectors only (the store is its filter property); the other
   * filters apply after (`want` is already larger when there are any).
   */
  async nearestInIndex(vector: number[], plan: SearchPlan, want: number): Promise<Near[]> {
    const rows = await this.graph.read<{ memory: unknown[]; similarity: number }>(Q.vectorCandidates, {
      vector,
      k: want,
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
}
