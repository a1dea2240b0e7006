/**
 * Per-store term statistics, loaded once per store (paging through its
 * memories) and then kept current from MemoryStored events. Memories written
 * by other processes are picked up when the entry is reloaded, at most every
 * `maxAgeMs`; document frequencies move slowly, so that staleness is harmless.
 */
import type { GraphPort, MemoryRecord } from '../../domain/index.js';
import { Q } from './cypher.js';
import { documentStems, StoreTermStats } from './bm25.js';
import { LruMap } from './lru.js';

interface Entry {
  readonly stats: Promise<StoreTermStats>;
  readonly loadedAt: number;
  readonly seen: Set<string>;
}

const PAGE = 5000;

export class StatsCache {
  private readonly entries: LruMap<string, Entry>;

  constructor(
    private readonly graph: GraphPort,
    private readonly clock: () => number,
    maxStores = 64,
    private readonly maxAgeMs = 10 * 60_000,
  ) {
    this.entries = new LruMap(maxStores);
  }

  get(store: string): Promise<StoreTermStats> {
    const entry = this.entries.get(store);
    if (entry && this.clock() - entry.loadedAt < this.maxAgeMs) return entry.stats;
    const seen = new Set<string>();
    const stats = this.load(store, seen);
    this.entries.set(store, { stats, loadedAt: this.clock(), seen });
    stats.catch(() => this.entries.delete(store));
    return stats;
  }

  /** Counts a newly stored memory into its store's statistics, if they are loaded. */
  async stored(memory: MemoryRecord): Promise<void> {
    const entry = this.entries.peek(memory.store);
    if (!entry) return;
    const stats = await entry.stats;
    if (entry.seen.has(memory.id)) return;
    entry.seen.add(memory.id);
    stats.add(documentStems(memory.content, memory.tags, memory.people));
  }

  /** A forgotten memory's text is gone: reload that store's statistics next time. */
  invalidate(store: string): void {
    this.entries.delete(store);
  }

  private async load(store: string, seen: Set<string>): Promise<StoreTermStats> {
    const stats = new StoreTermStats();
    let after = '';
    for (;;) {
      const rows = await this.graph.read<{ id: string; content: string; tags: string[]; people: string[] }>(
        Q.storeTexts,
        { store, after, limit: PAGE },
      );
      for (const r of rows) {
        if (seen.has(r.id)) continue;
        seen.add(r.id);
        stats.add(documentStems(r.content ?? '', r.tags ?? [], r.people ?? []));
      }
      if (rows.length < PAGE) return stats;
      after = (rows[rows.length - 1] as { id: string }).id;
    }
  }
}
