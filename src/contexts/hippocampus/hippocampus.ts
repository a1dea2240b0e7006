/**
 * Hippocampus, the one write gate for memories: the actor that puts the
 * write gate (write-gate.ts, consolidate-command.ts, tier-batch.ts), the
 * reads (memory-reads.ts) and the embedding API (embedding-api.ts) on the
 * bus. Every write, by the bus or by a direct call, passes shutdown
 * admission (shutdown-admission.ts).
 */
import {
  ShuttingDownError,
  concurrent,
  type Bus,
  type ClaimCommand,
  type ConsolidateCommand,
  type ForgetCommand,
  type Meta,
  type MemoryEventRecord,
  type MemoryRecord,
  type ReclassifyCommand,
  type StoreCommand,
  type TierChangeBatch,
  type GraphPort,
} from '../../domain/index.js';
import type { StoreLimits } from './validation.js';
import type { GroupCommitSettings } from './group-commit.js';
import type { Stored } from './store-outcomes.js';
import type { WriteContext } from './write-context.js';
import { ShutdownAdmission } from './shutdown-admission.js';
import { WriteGate, type ForgetOutcome } from './write-gate.js';
import { consolidateMemories } from './consolidate-command.js';
import { changeTiers, type TierMove } from './tier-batch.js';
import { labelTiers } from './tier-labels.js';
import { MemoryReads } from './memory-reads.js';
import { EmbeddingApi, type EmbeddingWork, type MemoryVector, type StoreEmbeddingProgress } from './embedding-api.js';

export interface HippocampusDeps {
  readonly graph: GraphPort;
  readonly bus: Bus;
  readonly limits: StoreLimits;
  readonly clock?: () => number;
  /**
   * Whether Synapse links stored memories: each then waits for it (linkPendingAt)
   * until MemoriesLinked, so the reconciliation finds what a crash left unlinked.
   */
  readonly linking?: boolean;
  /** How concurrent single stores are grouped (default STORE_GROUP). */
  readonly groupCommit?: GroupCommitSettings;
}

export type { Stored } from './store-outcomes.js';
export type { ForgetOutcome } from './write-gate.js';
export type { TierMove } from './tier-batch.js';
export type { EmbeddingWork, MemoryVector, StoreEmbeddingProgress } from './embedding-api.js';

export class Hippocampus {
  private readonly ctx: WriteContext;
  private readonly admission = new ShutdownAdmission();
  private readonly gate: WriteGate;
  private readonly reads: MemoryReads;
  private readonly embeddings: EmbeddingApi;

  constructor(deps: HippocampusDeps) {
    this.ctx = {
      graph: deps.graph,
      bus: deps.bus,
      limits: deps.limits,
      clock: deps.clock ?? Date.now,
      linking: deps.linking ?? false,
    };
    this.gate = new WriteGate(this.ctx, deps.groupCommit);
    this.reads = new MemoryReads(deps.graph);
    this.embeddings = new EmbeddingApi(this.ctx);
  }

  /** Puts the handlers on the bus; commands about one memory keep their order, reads run side by side. */
  register(): this {
    const { bus } = this.ctx;
    bus.handle(
      'hippocampus',
      'ShutdownCommand',
      () => this.flush(),
      () => 'shutdown',
    );
    bus.handle(
      'hippocampus',
      'StoreCommand',
      (m) => this.store(m),
      (m) => `store:${m.meta.messageId}`,
    );
    bus.handle(
      'hippocampus',
      'ClaimCommand',
      (m) => this.claim(m),
      (m) => m.data.id,
    );
    bus.handle(
      'hippocampus',
      'ReclassifyCommand',
      (m) => this.reclassify(m),
      (m) => m.data.id,
    );
    bus.handle(
      'hippocampus',
      'ConsolidateCommand',
      (m) => this.consolidate(m),
      (m) => `consolidate:${[...m.data.ids].sort()[0]}`,
    );
    bus.handle(
      'hippocampus',
      'ForgetCommand',
      (m) => this.forget(m),
      (m) => m.data.id,
    );
    bus.handle(
      'hippocampus',
      'AccessCommand',
      (m) => this.access(m.data.id, m.meta),
      (m) => m.data.id,
    );
    bus.handle(
      'hippocampus',
      'TierChangeBatch',
      (m) => this.changeTiers(m),
      (m) => `tiers:${m.meta.messageId}`,
    );
    bus.handle('hippocampus', 'MemoriesQuery', (m) => this.getMany(m.data.ids), concurrent);
    bus.handle('hippocampus', 'MemoryHistoryQuery', (m) => this.history(m.data.id, m.data.limit), concurrent);
    bus.handle(
      'hippocampus',
      'MemoryEventsQuery',
      (m) => this.events(m.data.store, m.data.after, m.data.limit),
      concurrent,
    );
    bus.handle('hippocampus', 'ConsolidatedFromQuery', (m) => this.consolidatedFrom(m.data.id), concurrent);
    bus.subscribe(
      'hippocampus',
      'MemoriesLinked',
      (m) => this.linked(m.data.ids).then(() => undefined, ignoreShutdown),
      (m) => `linked:${m.meta.messageId}`,
    );
    return this;
  }

  /**
   * ShutdownCommand: take no new write, wait for the ones in flight to
   * commit (every write is its own transaction, so committed = flushed).
   */
  async flush(): Promise<{ inFlight: number; memories: number }> {
    const inFlight = await this.admission.close();
    return { inFlight, memories: await this.count() };
  }

  // ── writes (each through shutdown admission) ──────────────────────────────

  store(command: StoreCommand): Promise<Stored[]> {
    return this.admission.admit(() => this.gate.store(command));
  }

  claim(command: ClaimCommand): Promise<MemoryRecord> {
    return this.admission.admit(() => this.gate.claim(command));
  }

  reclassify(command: ReclassifyCommand): Promise<MemoryRecord> {
    return this.admission.admit(() => this.gate.reclassify(command));
  }

  consolidate(command: ConsolidateCommand): Promise<MemoryRecord> {
    return this.admission.admit(() => consolidateMemories(this.ctx, command));
  }

  forget(command: ForgetCommand): Promise<ForgetOutcome> {
    return this.admission.admit(() => this.gate.forget(command));
  }

  /** A read by id is an access: recorded, counted and published as MemoryAccessed. */
  access(id: string, cause: Meta): Promise<MemoryRecord> {
    return this.admission.admit(() => this.gate.access(id, cause));
  }

  /** Salience's batch of tier changes; Hippocampus checks the written rules and decides. */
  changeTiers(command: TierChangeBatch): Promise<TierMove[]> {
    return this.admission.admit(() => changeTiers(this.ctx, command));
  }

  /** MemoriesLinked: these memories wait for their links no longer (a lost one is relinked by the reconciliation). */
  linked(ids: readonly string[]): Promise<string[]> {
    return this.admission.admit(() => this.gate.linked(ids));
  }

  /** Gives memories stored before tier labels existed their label, once per database; how many it labelled. */
  labelTiers(batch?: number): Promise<number> {
    return this.admission.admit(() => labelTiers(this.ctx.graph, this.ctx.clock, batch));
  }

  // ── reads ─────────────────────────────────────────────────────────────────

  get(id: string): Promise<MemoryRecord | null> {
    return this.reads.get(id);
  }

  getMany(ids: readonly string[]): Promise<MemoryRecord[]> {
    return this.reads.getMany(ids);
  }

  history(id: string, limit: number): Promise<MemoryEventRecord[]> {
    return this.reads.history(id, limit);
  }

  events(store: string, after: string | null, limit: number): Promise<MemoryEventRecord[]> {
    return this.reads.events(store, after, limit);
  }

  consolidatedFrom(id: string): Promise<MemoryRecord[]> {
    return this.reads.consolidatedFrom(id);
  }

  /** Memories in these stores; null: in every store. */
  count(stores: readonly string[] | null = null): Promise<number> {
    return this.reads.count(stores);
  }

  // ── the embedding API (derived data: computed off the request path, written here) ──

  embeddingProgress(stores: readonly string[] | null): Promise<StoreEmbeddingProgress[]> {
    return this.embeddings.embeddingProgress(stores);
  }

  memoriesToEmbed(ids: readonly string[], model: string): Promise<EmbeddingWork[]> {
    return this.embeddings.memoriesToEmbed(ids, model);
  }

  pendingEmbeddings(
    after: string,
    limit: number,
    stores: readonly string[] | null,
    model: string,
  ): Promise<{ id: string }[]> {
    return this.embeddings.pendingEmbeddings(after, limit, stores, model);
  }

  stalledEmbeddings(before: number, limit: number, stores: readonly string[] | null): Promise<{ id: string }[]> {
    return this.embeddings.stalledEmbeddings(before, limit, stores);
  }

  attachEmbeddings(vectors: readonly MemoryVector[], model: string): Promise<string[]> {
    return this.admission.admit(() => this.embeddings.attachEmbeddings(vectors, model));
  }

  failEmbeddings(ids: readonly string[], reason: string): Promise<string[]> {
    return this.admission.admit(() => this.embeddings.failEmbeddings(ids, reason));
  }
}

/** After shutdown a MemoriesLinked is dropped: the reconciliation finds the memory still waiting and relinks it. */
function ignoreShutdown(error: unknown): void {
  if (!(error instanceof ShuttingDownError)) throw error;
}
