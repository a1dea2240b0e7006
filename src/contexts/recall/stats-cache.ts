/**
 * Per-store term statistics, loaded once per store (paging through its
 * memories) and then kept current from MemoryStored events. Memories written
 * by other processes are picked up when the entry is reloaded, at most every
 * `maxAgeMs`; document frequencies move slowly, so that staleness is harmless.
 * A reload runs behind the searches: they keep the statistics they have until
 * the new ones are complete (reading a store of 100k took seconds, and every
 * search of it waited that long once every ten minutes). Only a store's first
 * search, or the first after a forget, waits for its load.
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
  /** Reloads under way: each takes its store's place once complete. */
  private readonly reloading = new Map<string, Entry>();

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
    if (!entry) return this.loadNow(store).stats;
    if (this.clock() - entry.loadedAt >= this.maxAgeMs) this.reloadBehind(store);
    return entry.stats;
  }

  /** Counts a newly stored memory into its store's statistics, if they are loaded (and into a reload under way). */
  async stored(memory: MemoryRecord): Promise<void> {
    const count = (entry: Entry, stats: StoreTermStats) => {
      if (entry.seen.has(memory.id)) return;
      entry.seen.add(memory.id);
      stats.add(documentStems(memory.content, memory.tags, memory.people));
    };
    // Not waited for: a reload of a large store takes seconds, and the store's next events wait behind this one.
    const reload = this.reloading.get(memory.store);
    if (reload)
      void reload.stats.then(
        (stats) => count(reload, stats),
        () => undefined,
      );
    const entry = this.entries.peek(memory.store);
    if (entry) count(entry, await entry.stats);
  }

  /** A forgotten memory's text is gone: drop that store's statistics now and load them afresh next time. */
  invalidate(store: string): void {
    this.entries.delete(store);
    this.reloading.delete(store);
  }

  private begin(store: string): Entry {
    const seen = new Set<string>();
    return { stats: this.load(store, seen), loadedAt: this.clock(), seen };
  }

  /** A store's first load: its search waits for it. */
  private loadNow(store: string): Entry {
    const entry = this.begin(store);
    this.entries.set(store, entry);
    entry.stats.catch(() => {
      if (this.entries.peek(store) === entry) this.entries.delete(store);
    });
    return entry;
  }

  /** A reload while searches keep the statistics they have; a failed one is tried again by a later search. */
  private reloadBehind(store: string): void {
    if (this.reloading.has(store)) return;
    const entry = this.begin(store);
    this.reloading.set(store, entry);
    entry.stats.then(
      () => {
        if (this.reloading.get(store) !== entry) return; // forgotten meanwhile: that store loads afresh
        this.reloading.delete(store);
        this.entries.set(store, entry);
      },
      () => {
        if (this.reloading.get(store) === entry) this.reloading.delete(store);
      },
    );
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
