/**
 * Recall: "what do I remember about X?". The actor puts ranking (ranking.ts),
 * the recall log (recall-log.ts) and reflection (reflection.ts) on the bus,
 * and keeps ranking's caches current as memories are stored, forgotten and
 * embedded. Recall owns no memories: it records recalls and uses, and
 * reports outcomes as events.
 */
import { concurrent, type Bus, type Meta, type ReflectionScope } from '../../domain/index.js';
import { frameLine } from './frame.js';
import { pack, DEFAULT_INJECT_FLOOR, DEFAULT_LIVE_FLOOR, type Pack } from './packing.js';
import { Ranking, type RankingDeps } from './ranking.js';
import { RecallLog } from './recall-log.js';
import { Reflection } from './reflection.js';
import { ReflectionActions, type ReflectCandidateWithActions } from './reflection-actions.js';
import type { RankedHit } from './scoring.js';
import { validateContext, type ContextRequest, type RecallResult, type SearchRequest } from './search-request.js';

export interface RecallDeps extends RankingDeps {
  readonly bus: Bus;
  /**
   * The MECHANICAL THEMATIC strength from which two memories are near-duplicates (consolidation's threshold):
   * reflect candidates are offered the actions that fit them. Without it, none are offered.
   */
  readonly duplicateStrength?: number;
}

/**
 * The id a reader's recall gets: it is not recorded (no Recall node, no
 * MemoryRetrieved event), since a reader token writes nothing, and readers
 * may not markUsed anyway.
 */
export const UNRECORDED_RECALL_ID = 'unrecorded';

export class Recall {
  private readonly ranking: Ranking;
  private readonly log: RecallLog;
  private readonly reflection: Reflection;
  private readonly actions: ReflectionActions | null;

  constructor(private readonly deps: RecallDeps) {
    const clock = deps.clock ?? Date.now;
    this.ranking = new Ranking(deps);
    this.log = new RecallLog(deps.graph, deps.bus, clock, deps.log);
    this.reflection = new Reflection(deps.graph, clock);
    const { duplicateStrength } = deps;
    this.actions =
      duplicateStrength === undefined
        ? null
        : new ReflectionActions({ graph: deps.graph, rank: (r) => this.rankOnly(r), duplicateStrength });
  }

  /**
   * Queries run side by side (they only read, and each recall's record is its own); commands about one recall or
   * one use keep their order.
   */
  register(): this {
    const { bus } = this.deps;
    bus.handle('recall', 'SearchQuery', (q) => this.search(q.data, q.meta, q.data.record), concurrent);
    bus.handle('recall', 'ContextQuery', (q) => this.contextFor(q.data, q.meta, q.data.record), concurrent);
    bus.handle(
      'recall',
      'ReflectQuery',
      (q) => this.reflect(q.data.store, q.data.scope, q.data.timeSpanDays, q.data.limit),
      concurrent,
    );
    bus.handle(
      'recall',
      'MarkUsedCommand',
      (c) => this.log.markUsed(c.data.recallId, c.data.memoryIds, c.data.action, c.meta, c.data.reach),
      (c) => `recall:${c.data.recallId}`,
    );
    bus.handle(
      'recall',
      'ReportOutcomeCommand',
      (c) => this.log.reportOutcome(c.data.useId, c.data.outcome, c.data.note, c.meta, c.data.reach),
      (c) => `use:${c.data.useId}`,
    );
    this.keepCachesCurrent(bus);
    return this;
  }

  /** Term statistics, vectors and stems follow what Hippocampus stores, forgets and embeds, store by store. */
  private keepCachesCurrent(bus: Bus): void {
    const { stats, vectors, stems } = this.ranking;
    bus.subscribe(
      'recall',
      'MemoryStored',
      (e) => stats.stored(e.data.memory),
      (e) => e.data.memory.store,
    );
    bus.subscribe(
      'recall',
      'MemoryForgotten',
      async (e) => {
        stats.invalidate(e.data.store);
        for (const id of [e.data.id, ...e.data.embeddedWith]) vectors?.forgotten(e.data.store, id);
        stems.delete(e.data.id); // nothing derived from forgotten content stays behind
      },
      (e) => e.data.store,
    );
    bus.subscribe(
      'recall',
      'MemoriesEmbedded',
      (e) => vectors?.changed(e.data.store) ?? Promise.resolve(),
      (e) => e.data.store,
    );
  }

  /**
   * Reads a store afresh on its next search: its term statistics and its vectors. For memories this
   * process did not see stored (an import, another process's batches), which it otherwise counts in
   * only when those reload (every 10 minutes).
   */
  reload(store: string): void {
    this.ranking.stats.invalidate(store);
    this.ranking.vectors?.reload(store);
  }

  /** Ranks without recording anything (used by search and by benchmarks). */
  rankOnly(request: SearchRequest): Promise<RankedHit[]> {
    return this.ranking.rank(request);
  }

  /** The hits, with a frame line; recorded unless `record` is false (a reader's). */
  async search(request: SearchRequest, cause: Meta, record = true): Promise<RecallResult> {
    const hits = await this.rankOnly(request);
    const storeEmpty = hits.length === 0 && (await this.holdsNothing(request.store));
    return {
      id: record ? this.log.record(request.store, request.query, hits, cause) : UNRECORDED_RECALL_ID,
      query: request.query,
      hits,
      frame: frameLine(
        request.query,
        hits.map((h) => h.confidence),
        undefined,
        storeEmpty,
      ),
    };
  }

  /** The hits packed into a context budget; recorded unless `record` is false (a reader's). */
  async contextFor(request: ContextRequest, cause: Meta, record = true): Promise<Pack & { readonly recallId: string }> {
    const packed = await this.packOnly(request);
    const recallId = record ? this.log.record(request.store, request.query, packed.hits, cause) : UNRECORDED_RECALL_ID;
    return { ...packed, recallId };
  }

  /** contextFor's pack without recording the recall. */
  async packOnly(request: ContextRequest): Promise<Pack> {
    validateContext(request);
    const hits = await this.rankOnly({ ...request, limit: Math.min(100, Math.max(request.maxItems * 3, 20)) });
    const injectFloor = request.injectFloor ?? DEFAULT_INJECT_FLOOR;
    return pack(hits, {
      query: request.query,
      sessionId: request.sessionId,
      maxTokens: request.maxTokens,
      maxItems: request.maxItems,
      injectFloor,
      liveFloor: Math.min(request.liveFloor ?? DEFAULT_LIVE_FLOOR, injectFloor),
      storeEmpty: hits.length === 0 && (await this.holdsNothing(request.store)),
    });
  }

  /** Whether a store holds no memory at all (its term statistics, which the search has just read, say so). */
  private async holdsNothing(store: string): Promise<boolean> {
    return (await this.ranking.stats.get(store)).documents === 0;
  }

  /** Memories worth a second look, each with its reason and the actions that fit it. */
  async reflect(
    store: string,
    scope: ReflectionScope,
    timeSpanDays: number | null,
    limit: number,
  ): Promise<ReflectCandidateWithActions[]> {
    const candidates = await this.reflection.candidates(store, scope, timeSpanDays, limit);
    return this.actions ? this.actions.of(store, candidates) : candidates.map((c) => ({ ...c, actions: [] }));
  }

  /** Waits until every recall answered so far is recorded. */
  flush(): Promise<void> {
    return this.log.flush();
  }
}
