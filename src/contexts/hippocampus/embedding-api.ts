/**
 * The embedding API: the embedding job (src/adapters/bullmq) asks which
 * memories need a vector and hands back the vectors it computed. Vectors
 * are derived data: computed off the request path, written here.
 */
import { InvalidInputError, type GraphPort } from '../../domain/index.js';
import { Q } from './cypher.js';
import { embeddingText } from './embedding-text.js';
import { clampLimit } from './memory-reads.js';
import { announceEmbedded, type WriteContext } from './write-context.js';

/** How long a FAILED embedding waits before the reconciliation tries it again (one that keeps failing costs little). */
const FAILED_RETRY_MS = 3_600_000;

/**
 * A memory waiting for its embedding, with the text to embed (embeddingText)
 * and the memory that text took as context.
 */
export interface EmbeddingWork {
  readonly id: string;
  readonly text: string;
  readonly contextId: string | null;
}

export interface MemoryVector {
  readonly id: string;
  readonly embedding: readonly number[] | Float32Array;
  /** The memory whose content the vector's text took in (EmbeddingWork.contextId): attached only while it exists. */
  readonly contextId: string | null;
}

/** How far embedding has come in one store (health). */
export interface StoreEmbeddingProgress {
  readonly store: string;
  readonly pending: number;
  readonly failed: number;
  readonly done: number;
  readonly total: number;
}

export class EmbeddingApi {
  private readonly graph: GraphPort;

  constructor(private readonly ctx: WriteContext) {
    this.graph = ctx.graph;
  }

  /**
   * Per store, how far embedding has come: memories waiting, failed and done
   * (with a vector, the client's own included). For these stores, each listed;
   * null: every store with any waiting or failed.
   */
  async embeddingProgress(stores: readonly string[] | null): Promise<StoreEmbeddingProgress[]> {
    const wanted = stores === null ? null : [...new Set(stores)].sort();
    const open = await this.graph.read<{ store: string; pending: number; failed: number }>(Q.embeddingProgress, {
      stores: wanted,
    });
    const listed = wanted ?? open.map((r) => r.store);
    if (listed.length === 0) return [];
    const totals = new Map(
      (await this.graph.read<{ store: string; total: number }>(Q.countByStore, { stores: listed })).map((r) => [
        r.store,
        r.total,
      ]),
    );
    const byStore = new Map(open.map((r) => [r.store, r]));
    return listed.map((store) => {
      const { pending = 0, failed = 0 } = byStore.get(store) ?? {};
      const total = totals.get(store) ?? 0;
      return { store, pending, failed, done: Math.max(0, total - pending - failed), total };
    });
  }

  /**
   * Of these memories, the ones without an embedding of `model` (a client's
   * own counts as done), with the text to embed.
   */
  async memoriesToEmbed(ids: readonly string[], model: string): Promise<EmbeddingWork[]> {
    if (ids.length === 0) return [];
    const rows = await this.graph.read<{ id: string; content: string; before: string | null; beforeId: string | null }>(
      Q.memoriesToEmbed,
      { ids: [...ids], model },
    );
    return rows.map((r) => ({ id: r.id, text: embeddingText(r.content, r.before), contextId: r.beforeId }));
  }

  /**
   * A page of the ids of memories needing an embedding of `model` after
   * `after` in id order (the backfill); `stores` null = all.
   */
  async pendingEmbeddings(
    after: string,
    limit: number,
    stores: readonly string[] | null,
    model: string,
  ): Promise<{ id: string }[]> {
    return this.graph.read<{ id: string }>(Q.pendingEmbeddings, {
      after,
      limit: clampLimit(limit),
      stores: stores ? [...stores] : null,
      model,
    });
  }

  /**
   * Stores computed vectors (status DONE) on memories that have none yet or
   * one of another model (vectors of two models do not compare); a client's
   * own vector is never replaced. Returns the ids that got one.
   */
  async attachEmbeddings(vectors: readonly MemoryVector[], model: string): Promise<string[]> {
    if (vectors.length === 0) return [];
    for (const v of vectors) {
      if (
        v.embedding.length !== this.ctx.limits.embeddingDimensions ||
        !Array.from(v.embedding).every(Number.isFinite)
      ) {
        throw new InvalidInputError(
          'HIPPOCAMPUS.EMBEDDING_DIMENSION',
          `embedding for ${v.id} must have ${this.ctx.limits.embeddingDimensions} finite numbers`,
        );
      }
    }
    const rows = await this.graph.write<{ id: string; store: string }>(Q.attachEmbeddings, {
      vectors: vectors.map((v) => ({ id: v.id, embedding: Array.from(v.embedding), contextId: v.contextId })),
      model,
      now: this.ctx.clock(),
    });
    announceEmbedded(this.ctx.bus, rows);
    return rows.map((r) => r.id);
  }

  /** Marks memories whose embedding failed for good (FAILED; the reconciliation and the backfill retry them). */
  async failEmbeddings(ids: readonly string[], reason: string): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.graph.write<{ id: string }>(Q.failEmbeddings, {
      ids: [...ids],
      reason: reason.slice(0, 1000),
      now: this.ctx.clock(),
    });
    return rows.map((r) => r.id);
  }

  /**
   * Memories still PENDING an embedding that were stored before `before`,
   * oldest first, then those that FAILED over an hour before it (the
   * reconciliation re-queues them: a failure may have passed, and the backfill
   * runs only when the model becomes ready).
   */
  async stalledEmbeddings(before: number, limit: number, stores: readonly string[] | null): Promise<{ id: string }[]> {
    return this.graph.read<{ id: string }>(Q.stalledEmbeddings, {
      before,
      failedBefore: before - FAILED_RETRY_MS,
      limit: clampLimit(limit),
      stores: stores ? [...stores] : null,
    });
  }
}
