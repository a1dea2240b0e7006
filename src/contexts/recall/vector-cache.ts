/**
 * Which stores Recall searches by vector in process, and keeping those copies
 * current. Why in process: a store of up to `maxVectors` is scanned here
 * exactly in a few milliseconds, where the vector index (which searches one
 * store's vectors since Neo4j 2026, the store being its filter property) is
 * approximate and costs a round trip to Neo4j besides (bench/results/stores.md).
 * Larger stores (and stores whose copy is still loading) go to the vector
 * index (see ranking.ts).
 *
 * A copy is loaded on a store's first semantic search, in the background,
 * page by page; it catches up from `embeddedAt` when this process attached
 * vectors (MemoriesEmbedded, MemoryStored with a client vector) and at most
 * every `refreshMs` otherwise (vectors attached by another process), and is
 * reloaded whole every `maxAgeMs` (memories forgotten elsewhere).
 */
import type { GraphPort } from '../../domain/index.js';
import { Q } from './cypher.js';
import { StoreVectors } from './store-vectors.js';
import { LruMap } from './lru.js';

export interface VectorCacheOptions {
  readonly dimensions: number;
  /** Stores with more memories than this are searched through the vector index. */
  readonly maxVectors: number;
  /** At most this many stores are kept (least recently searched dropped first). */
  readonly maxStores: number;
  readonly refreshMs: number;
  readonly maxAgeMs: number;
  /**
   * A search waits for the copy of a store up to this size to load (it loads
   * in a few milliseconds, and answers exactly); larger ones use the index
   * until their copy is there.
   */
  readonly waitBelow: number;
}

export const DEFAULT_VECTOR_CACHE: Omit<VectorCacheOptions, 'dimensions'> = {
  maxVectors: 20_000,
  waitBelow: 5_000,
  maxStores: 32,
  refreshMs: 2_000,
  maxAgeMs: 10 * 60_000,
};

const PAGE = 2_000;
/** A catch-up re-reads this far back: transactions may commit out of their clock order. */
const OVERLAP_MS = 5_000;

interface Copy {
  readonly vectors: StoreVectors;
  /** When each memory's embedding (or the attempt that gave up) was attached, as the copy last read it. */
  readonly attachedAt: Map<string, number>;
  readonly loadedAt: number;
  ready: boolean;
  /** Newest embeddedAt seen. */
  watermark: number;
  checkedAt: number;
  catching: Promise<void> | null;
  again: boolean;
}

type Row = {
  id: string;
  embedding: number[] | null;
  embeddedAt: number | null;
};

type Attached = { id: string; embeddedAt: number };

export class VectorCache {
  private readonly copies: LruMap<string, Copy>;
  /**
   * When a store's copy was found past the limit. Its size as the caller knows
   * it (Recall's term statistics) can lag: memories stored by another process
   * are only counted when those reload. Without this, every search of a store
   * grown elsewhere re-read a copy's worth of vectors (20k) only to drop them
   * again (bench:scale at 100k: search p95 642 ms).
   */
  private readonly oversized: LruMap<string, number>;

  constructor(
    private readonly graph: GraphPort,
    private readonly clock: () => number,
    private readonly options: VectorCacheOptions,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.copies = new LruMap(options.maxStores);
    this.oversized = new LruMap(options.maxStores * 4);
  }

  /**
   * The store's vectors when its copy is loaded and current enough; null when
   * the store is too large for a copy or its copy is still loading (which this
   * starts). `storeSize` is the store's number of memories.
   */
  ready(store: string, storeSize: number): StoreVectors | null {
    if (this.tooLarge(storeSize)) {
      this.copies.delete(store);
      return null;
    }
    const now = this.clock();
    if (now - (this.oversized.peek(store) ?? -Infinity) < this.options.maxAgeMs) return null;
    let copy = this.copies.get(store);
    if (copy && now - copy.loadedAt >= this.options.maxAgeMs) copy = undefined;
    if (!copy) {
      this.copies.set(store, this.load(store, now));
      return null;
    }
    if (!copy.ready) return null;
    if (now - copy.checkedAt >= this.options.refreshMs) void this.catchUp(store, copy);
    return copy.vectors;
  }

  /** Whether a store of this size is searched through the index rather than in process. */
  tooLarge(storeSize: number): boolean {
    return storeSize > this.options.maxVectors;
  }

  /** As `ready`, but waits for the copy of a store smaller than `waitBelow` to load. */
  async get(store: string, storeSize: number): Promise<StoreVectors | null> {
    const vectors = this.ready(store, storeSize);
    if (vectors || storeSize > this.options.waitBelow) return vectors;
    await this.copies.peek(store)?.catching;
    return this.peek(store);
  }

  /** The store's loaded copy, if any, without loading or refreshing it. */
  peek(store: string): StoreVectors | null {
    const copy = this.copies.peek(store);
    return copy?.ready ? copy.vectors : null;
  }

  /** Vectors were attached in this store: catch up now (awaited by the caller's mailbox). */
  async changed(store: string): Promise<void> {
    const copy = this.copies.peek(store);
    if (copy?.ready) await this.catchUp(store, copy);
  }

  /** Drops the store's copy (and the note that it was too large): the next search loads it afresh. */
  reload(store: string): void {
    this.copies.delete(store);
    this.oversized.delete(store);
  }

  forgotten(store: string, id: string): void {
    const copy = this.copies.peek(store);
    copy?.vectors.remove(id);
    copy?.attachedAt.delete(id);
  }

  private load(store: string, now: number): Copy {
    const copy: Copy = {
      vectors: new StoreVectors(this.options.dimensions),
      attachedAt: new Map(),
      loadedAt: now,
      ready: false,
      watermark: 0,
      checkedAt: now,
      catching: null,
      again: false,
    };
    copy.catching = (async () => {
      let after = '';
      for (;;) {
        const rows = await this.graph.read<Row>(Q.storeVectors, { store, after, limit: PAGE });
        this.apply(copy, rows);
        if (copy.vectors.size > this.options.maxVectors) {
          // Larger than its caller knew, or grew past the limit while loading: the index serves this store.
          this.dropOversized(store, copy);
          return;
        }
        if (rows.length < PAGE) break;
        after = (rows[rows.length - 1] as Row).id;
      }
      copy.ready = true;
    })()
      .catch((error: Error) => {
        this.log(`recall: could not load the vectors of store ${store} (${error.message}); using the vector index`);
        this.drop(store, copy);
      })
      .finally(() => {
        copy.catching = null;
      });
    return copy;
  }

  /**
   * Reads what was attached since the watermark, less OVERLAP_MS: first ids
   * and times only, then the vectors of those the copy lacks or holds older.
   * Re-reading the look-back window costs ids, not vectors: after an import
   * it can hold thousands of memories, and reading their vectors on every
   * catch-up kept a 10k store's process busy (measured: 2,000 vectors, about
   * 240 ms, on every search and every embedding).
   */
  private async catchUp(store: string, copy: Copy): Promise<void> {
    if (copy.catching) {
      copy.again = true;
      return copy.catching;
    }
    copy.checkedAt = this.clock();
    copy.catching = (async () => {
      do {
        copy.again = false;
        const since = Math.max(0, copy.watermark - OVERLAP_MS);
        const limit = this.options.maxVectors + 1;
        const attached = await this.graph.read<Attached>(Q.embeddedSince, { store, since, limit });
        if (attached.length >= limit) {
          // More attached in the window than a copy may hold: the store is past the limit, and the index
          // serves it (a copy kept current would grow without end: a store grown to 1M held 1.5 GB).
          this.dropOversized(store, copy);
          return;
        }
        const news = attached.filter((a) => copy.attachedAt.get(a.id) !== a.embeddedAt).map((a) => a.id);
        for (let i = 0; i < news.length; i += PAGE) {
          const ids = news.slice(i, i + PAGE);
          this.apply(copy, await this.graph.read<Row>(Q.vectorsOf, { store, ids }));
        }
        for (const a of attached) if (a.embeddedAt > copy.watermark) copy.watermark = a.embeddedAt;
        if (copy.vectors.size > this.options.maxVectors) {
          this.dropOversized(store, copy);
          return;
        }
      } while (copy.again);
    })()
      .catch((error: Error) => this.log(`recall: could not refresh the vectors of store ${store} (${error.message})`))
      .finally(() => {
        copy.catching = null;
      });
    return copy.catching;
  }

  /** Forgets this copy of the store (not a newer one loaded meanwhile): the index serves the store now. */
  private drop(store: string, copy: Copy): void {
    if (this.copies.peek(store) === copy) this.copies.delete(store);
  }

  /** As drop, and no copy of the store is loaded again for `maxAgeMs`, whatever size the caller gives. */
  private dropOversized(store: string, copy: Copy): void {
    this.drop(store, copy);
    this.oversized.set(store, this.clock());
  }

  private apply(copy: Copy, rows: readonly Row[]): void {
    for (const row of rows) {
      if (row.embeddedAt !== null) copy.attachedAt.set(row.id, row.embeddedAt);
      if (!row.embedding) continue;
      copy.vectors.upsert(row.id, row.embedding);
      if (row.embeddedAt !== null && row.embeddedAt > copy.watermark) copy.watermark = row.embeddedAt;
    }
  }
}
