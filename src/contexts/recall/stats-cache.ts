/**
 * Per-store term statistics, loaded once per store (paging through its
 * memories) and then kept current from MemoryStored events. Memories written
 * by other processes are picked up when the entry is reloaded, at most every
 * `maxAgeMs`; document frequencies move slowly, so that staleness is harmless.
 * A reload runs behind the searches: they keep the statistics they have until
 * the new ones are complete (reading a store of 100k took seconds, and every
 * search of it waited that long once every ten minutes). A store's first
 * search, or the first after a forget, waits for the first page only: a store
 * of more than a page is searched meanwhile with that page scaled to the
 * store's size, closer to the whole with every page counted.
 */
import type { GraphPort, MemoryRecord } from '../../domain/index.js';
import { Q } from './cypher.js';
import { documentStems, ScaledTermStats, StoreTermStats, type TermStats } from './bm25.js';
import { LruMap } from './lru.js';

interface Entry {
  /** The statistics once every page is counted. */
  readonly full: Promise<StoreTermStats>;
  /** What searches use until then: the first page, scaled to the store's size (the full ones for one page). */
  readonly early: () => Promise<TermStats>;
  complete: boolean;
  readonly loadedAt: number;
  readonly seen: Set<string>;
}

const PAGE = 5000;
/** Memories counted between two turns of the event loop (a few milliseconds' work). */
const COUNTED_PER_TURN = 500;

export class StatsCache {
  private readonly entries: LruMap<string, Entry>;
  /** Reloads under way: each takes its store's place once complete. */
  private readonly reloading = new Map<string, Entry>();

  constructor(
    private readonly graph: GraphPort,
    private readonly clock: () => number,
    maxStores = 64,
    private readonly maxAgeMs = 10 * 60_000,
    private readonly page = PAGE,
  ) {
    this.entries = new LruMap(maxStores);
  }

  get(store: string): Promise<TermStats> {
    let entry = this.entries.get(store);
    if (!entry) entry = this.loadNow(store);
    else if (this.clock() - entry.loadedAt >= this.maxAgeMs) this.reloadBehind(store);
    return entry.complete ? entry.full : entry.early();
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
      void reload.full.then(
        (stats) => count(reload, stats),
        () => undefined,
      );
    const entry = this.entries.peek(memory.store);
    if (entry) count(entry, await entry.full);
  }

  /** A forgotten memory's text is gone: drop that store's statistics now and load them afresh next time. */
  invalidate(store: string): void {
    this.entries.delete(store);
    this.reloading.delete(store);
  }

  private begin(store: string): Entry {
    const seen = new Set<string>();
    const stats = new StoreTermStats();
    let firstPageCounted = (_whole: boolean) => {};
    const firstPage = new Promise<boolean>((resolve) => (firstPageCounted = resolve));
    const full = this.load(store, seen, stats, firstPageCounted);
    // Only a search waiting for a first load asks for these (a reload runs behind the complete ones). The store is
    // counted while its first page is read; if the count fails, searches wait for the whole load instead.
    let early: Promise<TermStats> | null = null;
    const scaled = async () => {
      const [whole, size] = await Promise.all([firstPage, this.size(store)]);
      return whole ? stats : new ScaledTermStats(stats, size);
    };
    const entry: Entry = {
      full,
      // A failed load fails these too (if it fails before its first page, that page never comes).
      early: () => (early ??= Promise.race([full, scaled().catch(() => full)])),
      complete: false,
      loadedAt: this.clock(),
      seen,
    };
    full.then(
      () => (entry.complete = true),
      () => undefined,
    );
    return entry;
  }

  private async size(store: string): Promise<number> {
    const rows = await this.graph.read<{ count: number }>(Q.storeSize, { store });
    return Number(rows[0]?.count ?? 0);
  }

  /** A store's first load: its search waits for the first page (see `early`). */
  private loadNow(store: string): Entry {
    const entry = this.begin(store);
    this.entries.set(store, entry);
    entry.full.catch(() => {
      if (this.entries.peek(store) === entry) this.entries.delete(store);
    });
    return entry;
  }

  /** A reload while searches keep the statistics they have; a failed one is tried again by a later search. */
  private reloadBehind(store: string): void {
    if (this.reloading.has(store)) return;
    const entry = this.begin(store);
    this.reloading.set(store, entry);
    entry.full.then(
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

  /** Counts every page of the store into `stats`; tells after the first whether it was the whole store. */
  private async load(
    store: string,
    seen: Set<string>,
    stats: StoreTermStats,
    firstPageCounted: (whole: boolean) => void,
  ): Promise<StoreTermStats> {
    let after = '';
    for (let first = true; ; first = false) {
      const rows = await this.graph.read<{ id: string; content: string; tags: string[]; people: string[] }>(
        Q.storeTexts,
        { store, after, limit: this.page },
      );
      for (const [i, r] of rows.entries()) {
        // Searches run on this thread too: a page is counted in slices with a turn for them between.
        if (i > 0 && i % COUNTED_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
        if (seen.has(r.id)) continue;
        seen.add(r.id);
        stats.add(documentStems(r.content ?? '', r.tags ?? [], r.people ?? []));
      }
      if (first) firstPageCounted(rows.length < this.page);
      if (rows.length < this.page) return stats;
      after = (rows[rows.length - 1] as { id: string }).id;
    }
  }
}
