/**
 * Hippocampus, the one write gate for memories. Each command is validated,
 * written together with its audit event in one transaction, and only then
 * published as an event to the other contexts.
 */
import {
  InvalidInputError,
  NotFoundError,
  isTier,
  sortableId,
  newMemoryId,
  storeKeyOf,
  ShuttingDownError,
  type Bus,
  type ClaimCommand,
  type ForgetOutcome,
  type ShutdownFlush,
  type TierMove,
  type ConsolidateCommand,
  type ForgetCommand,
  type Meta,
  type MemoryEventRecord,
  type MemoryRecord,
  type NewMemory,
  type ReclassifyCommand,
  type StoreCommand,
  type TierChangeBatch,
  type DemoteTier,
  type PromoteTier,
} from '../../domain/index.js';
import type { GraphPort, Tx } from '../../adapters/neo4j/index.js';
import { Q } from './cypher.js';
import { toEventRecord, toMemoryRecord } from './records.js';
import { validateBatch, validateReason, type StoreLimits } from './validation.js';
import { checkTierChange } from './tier-rules.js';
import { consolidate, consolidatedMetadata } from './consolidation.js';
import { embeddingText } from './embedding-text.js';
import { GroupCommit, STORE_GROUP, type GroupCommitSettings } from './group-commit.js';
import {
  asError,
  storedOutcomes,
  type SingleStore,
  type Stored,
  type StoreInput,
  type StoreRow,
} from './store-outcomes.js';

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

export type { ForgetOutcome, Stored, TierMove } from '../../domain/index.js';

/** A memory waiting for its embedding, with the text to embed (embeddingText) and the memory that text took as context. */
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

const TIER_LABELS_MIGRATION = 'tier-labels';
const notFound = (id: string) => new NotFoundError('HIPPOCAMPUS.MEMORY_NOT_FOUND', `no memory with id ${id}`, { id });
const json = (value: unknown) => JSON.stringify(value);

/** The audit fields every write statement takes from the command's envelope. */
function auditParams(meta: Meta) {
  return { commandId: meta.messageId, correlationId: meta.correlationId };
}

export class Hippocampus {
  private readonly graph: GraphPort;
  private readonly bus: Bus;
  private readonly limits: StoreLimits;
  private readonly clock: () => number;
  private readonly linking: boolean;
  /** Commands being handled now; ShutdownCommand waits for them (the flush). */
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;
  /** Concurrent single-memory stores, committed together (group-commit.ts). */
  private readonly singles: GroupCommit<SingleStore, Stored>;

  constructor(deps: HippocampusDeps) {
    this.graph = deps.graph;
    this.bus = deps.bus;
    this.limits = deps.limits;
    this.clock = deps.clock ?? Date.now;
    this.linking = deps.linking ?? false;
    this.singles = new GroupCommit((group) => this.commitSingles(group), deps.groupCommit ?? STORE_GROUP);
  }

  /** Puts the handlers on the bus; commands about one memory keep their order. */
  register(): this {
    const bus = this.tracked();
    this.bus.handle(
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
      'PromoteTier',
      (m) => this.changeTier(m),
      (m) => m.data.id,
    );
    bus.handle(
      'hippocampus',
      'DemoteTier',
      (m) => this.changeTier(m),
      (m) => m.data.id,
    );
    bus.handle(
      'hippocampus',
      'TierChangeBatch',
      (m) => this.changeTiers(m),
      (m) => `tiers:${m.meta.messageId}`,
    );
    this.bus.subscribe(
      'hippocampus',
      'MemoriesLinked',
      (m) => this.linked(m.data.ids).then(() => undefined),
      (m) => `linked:${m.meta.messageId}`,
    );
    return this;
  }

  // ── commands ──────────────────────────────────────────────────────────────

  /**
   * ShutdownCommand: take no new command, wait for the ones in flight to
   * commit (every write is its own transaction, so committed = flushed).
   */
  async flush(): Promise<ShutdownFlush> {
    this.closed = true;
    const inFlight = this.inFlight.size;
    await Promise.allSettled([...this.inFlight]);
    return { inFlight, memories: await this.count() };
  }

  /** The bus, with every handler refused after shutdown and tracked while it runs. */
  private tracked(): Pick<Bus, 'handle'> {
    const handle: Bus['handle'] = (actor, type, handler, key) =>
      this.bus.handle(actor, type, (m) => this.admit(() => handler(m)), key);
    return { handle };
  }

  private admit<R>(work: () => Promise<R>): Promise<R> {
    if (this.closed) return Promise.reject(new ShuttingDownError());
    const running = work();
    this.inFlight.add(running);
    void running.then(
      () => this.inFlight.delete(running),
      () => this.inFlight.delete(running),
    );
    return running;
  }

  async store(command: StoreCommand): Promise<Stored[]> {
    const now = this.clock();
    const memories = validateBatch(command.data.memories, this.limits, now);
    const events = new Map(memories.map((m) => [m.id, sortableId('evt', now)]));
    const audit = auditParams(command.meta);
    const inputs = memories.map((m, index) => ({
      ...m,
      storeKey: storeKeyOf(m.store),
      eventId: events.get(m.id),
      eventPayload: storedPayload(m),
      now,
      ...audit,
      index,
    }));
    // One memory joins the single stores of other calls in a group commit: where its id is taken the statement
    // writes nothing for it, so the conflict is told after the commit and fails only this call. A batch is one
    // transaction, all or nothing: a taken id with a different memory throws, which rolls it back.
    const stored =
      memories.length === 1
        ? [await this.singles.submit({ input: inputs[0] as StoreInput, memory: memories[0] as NewMemory })]
        : await this.graph.transaction(async (tx) => {
            const rows = await tx.run<StoreRow>(Q.storeMemories, { memories: inputs, linking: this.linking });
            return storedOutcomes(rows, memories).map((outcome) => {
              if (outcome instanceof Error) throw outcome;
              return outcome;
            });
          });
    for (const s of stored) {
      if (!s.created) continue;
      this.bus.publish(
        this.bus.message('MemoryStored', { memory: s.memory }, 'hippocampus', {
          cause: command.meta,
          messageId: events.get(s.memory.id),
        }),
      );
    }
    this.announceEmbedded(
      memories.filter((m, i) => m.embedding && stored[i]?.created),
      command.meta,
    );
    return stored;
  }

  /** Single stores of several calls in one statement; when it fails, each again alone, so one cannot fail the rest. */
  private async commitSingles(group: readonly SingleStore[]): Promise<(Stored | Error)[]> {
    try {
      const rows = await this.graph.write<StoreRow>(Q.storeMemories, {
        memories: group.map((g, index) => ({ ...g.input, index })),
        linking: this.linking,
      });
      return storedOutcomes(
        rows,
        group.map((g) => g.memory),
      );
    } catch (error) {
      if (group.length === 1) throw error;
      return Promise.all(
        group.map((g) =>
          this.commitSingles([g]).then(
            (outcomes) => outcomes[0] as Stored | Error,
            (e: unknown) => asError(e),
          ),
        ),
      );
    }
  }

  async claim(command: ClaimCommand): Promise<MemoryRecord> {
    const now = this.clock();
    const eventId = sortableId('evt', now);
    const rows = await this.graph.write<{ memory: Record<string, unknown> }>(Q.claimMemory, {
      id: command.data.id,
      now,
      eventId,
      sessionId: command.meta.sessionId,
      ...auditParams(command.meta),
    });
    const row = rows[0];
    if (!row) throw notFound(command.data.id);
    const memory = toMemoryRecord(row.memory);
    this.bus.publish(
      this.bus.message('MemoryClaimed', { id: memory.id, store: memory.store }, 'hippocampus', {
        cause: command.meta,
        messageId: eventId,
      }),
    );
    return memory;
  }

  async reclassify(command: ReclassifyCommand): Promise<MemoryRecord> {
    const { id, tier, metadata } = command.data;
    const reason = validateReason(command.data.reason);
    if (!isTier(tier)) throw new InvalidInputError('HIPPOCAMPUS.UNKNOWN_TIER', `unknown tier "${tier}"`);
    const now = this.clock();
    const eventId = sortableId('evt', now);
    const tierEventId = sortableId('evt', now);
    const { memory, from } = await this.graph.transaction(async (tx) => {
      const current = await this.readOne(tx, id);
      const payload = json({ from: current.tier, to: tier, reason, by: 'MIND' });
      const rows = await tx.run<{ memory: Record<string, unknown> }>(Q.reclassifyMemory, {
        id,
        from: current.tier,
        tier,
        metadata: metadata === undefined || metadata === null ? null : json(metadata),
        now,
        eventId,
        tierEventId,
        payload,
        sessionId: command.meta.sessionId,
        ...auditParams(command.meta),
      });
      if (!rows[0]) throw new Error(`memory ${id} changed tier during reclassify; retry`);
      return { memory: toMemoryRecord(rows[0].memory), from: current.tier };
    });
    const cause = command.meta;
    this.bus.publish(
      this.bus.message(
        'MemoryReclassified',
        { id, store: memory.store, from, to: memory.tier, reason },
        'hippocampus',
        { cause, messageId: eventId },
      ),
    );
    if (from !== memory.tier) {
      this.bus.publish(
        this.bus.message(
          'TierChanged',
          { id, store: memory.store, from, to: memory.tier, reason, by: 'MIND' },
          'hippocampus',
          { cause, messageId: tierEventId },
        ),
      );
    }
    return memory;
  }

  async consolidate(command: ConsolidateCommand): Promise<MemoryRecord> {
    const ids = [...new Set(command.data.ids)];
    if (ids.length < 2)
      throw new InvalidInputError(
        'HIPPOCAMPUS.CONSOLIDATE_TOO_FEW',
        'consolidation needs at least two distinct memories',
      );
    const now = this.clock();
    const newId = newMemoryId();
    const storedEventId = sortableId('evt', now);
    const consolidatedEventId = sortableId('evt', now);
    const memory = await this.graph.transaction(async (tx) => {
      const found = (await tx.run<{ memory: Record<string, unknown> }>(Q.getMemories, { ids })).map((r) =>
        toMemoryRecord(r.memory),
      );
      const missing = ids.filter((id) => !found.some((m) => m.id === id));
      if (missing.length > 0)
        throw new NotFoundError('HIPPOCAMPUS.MEMORY_NOT_FOUND', `no memory with id ${missing.join(', ')}`, {
          ids: missing,
        });
      const stores = new Set(found.map((m) => m.store));
      if (stores.size > 1)
        throw new InvalidInputError('HIPPOCAMPUS.CROSS_STORE', 'all memories to consolidate must belong to one store', {
          stores: [...stores],
        });
      const merged = consolidate(found, command.data.strategy, command.data.content);
      if (Buffer.byteLength(merged.content, 'utf8') > this.limits.maxContentBytes) {
        throw new InvalidInputError(
          'HIPPOCAMPUS.CONTENT_TOO_LARGE',
          `the consolidated content is over ${this.limits.maxContentBytes} bytes; use SUMMARIZE`,
        );
      }
      const store = (found[0] as MemoryRecord).store;
      const rows = await tx.run<{ memory: Record<string, unknown> }>(Q.createConsolidated, {
        memory: {
          id: newId,
          store,
          storeKey: storeKeyOf(store),
          metadata: json(
            consolidatedMetadata(
              ids.map((id) => found.find((m) => m.id === id)!),
              command.data.strategy,
            ),
          ),
          ...merged,
        },
        linking: this.linking,
        from: ids,
        now,
        storedEventId,
        consolidatedEventId,
        payload: json({ from: ids, strategy: command.data.strategy }),
        sessionId: command.meta.sessionId,
        ...auditParams(command.meta),
      });
      return toMemoryRecord((rows[0] as { memory: Record<string, unknown> }).memory);
    });
    const cause = command.meta;
    this.bus.publish(this.bus.message('MemoryStored', { memory }, 'hippocampus', { cause, messageId: storedEventId }));
    this.bus.publish(
      this.bus.message('MemoryConsolidated', { memory, from: ids, strategy: command.data.strategy }, 'hippocampus', {
        cause,
        messageId: consolidatedEventId,
      }),
    );
    return memory;
  }

  async forget(command: ForgetCommand): Promise<ForgetOutcome> {
    const { id, confirmId } = command.data;
    if (confirmId !== id)
      throw new InvalidInputError(
        'HIPPOCAMPUS.FORGET_NOT_CONFIRMED',
        'confirmId must repeat the id of the memory to forget',
      );
    const reason = validateReason(command.data.reason);
    const now = this.clock();
    const eventId = sortableId('evt', now);
    const { store, embeddedWith } = await this.graph.transaction(async (tx) => {
      const rows = await tx.run<{ store: string; embeddedWith: string[] }>(Q.forgetMemory, {
        id,
        now,
        eventId,
        payload: json({ reason }),
        sessionId: command.meta.sessionId,
        ...auditParams(command.meta),
      });
      if (rows[0]) return rows[0];
      // A replay of a transaction that did commit finds its own tombstone (the
      // memories it cleared wait as PENDING for the next backfill).
      const tombstone = await tx.run<{ event: Record<string, unknown> }>(Q.getEvent, { id: eventId });
      if (tombstone[0]) return { store: String(tombstone[0].event.store), embeddedWith: [] };
      throw notFound(id);
    });
    this.bus.publish(
      this.bus.message('MemoryForgotten', { id, store, reason, embeddedWith }, 'hippocampus', {
        cause: command.meta,
        messageId: eventId,
      }),
    );
    return { id, forgotten: true };
  }

  /** Salience asks; Hippocampus checks the written rules and decides. */
  async changeTier(command: PromoteTier | DemoteTier): Promise<MemoryRecord | null> {
    const { id, from, to } = command.data;
    const verdict = checkTierChange(from, to, 'SALIENCE');
    if (!verdict.ok)
      throw new InvalidInputError(
        'HIPPOCAMPUS.TIER_RULE',
        `${command.type} ${id} ${from}→${to} refused: ${verdict.reason}`,
      );
    const now = this.clock();
    const eventId = sortableId('evt', now);
    const { reason, change } = salienceTierChange(command, eventId);
    const rows = await this.graph.write<{ id: string; tier: string }>(Q.changeTiers, {
      changes: [change],
      now,
      ...auditParams(command.meta),
    });
    if (!rows[0]) return null; // the memory moved or went meanwhile: nothing to do
    const memory = await this.get(id);
    if (memory) {
      this.bus.publish(
        this.bus.message('TierChanged', { id, store: memory.store, from, to, reason, by: 'SALIENCE' }, 'hippocampus', {
          cause: command.meta,
          messageId: eventId,
        }),
      );
    }
    return memory;
  }

  /**
   * A sweep's batch of tier changes: every change is checked against the rules
   * first (one refusal refuses the batch, nothing is written), then all run as
   * one statement with one TierChanged event each. Returns the changes applied;
   * a memory that moved meanwhile is skipped.
   */
  async changeTiers(command: TierChangeBatch): Promise<TierMove[]> {
    const changes = command.data.changes;
    const ids = new Set(changes.map((c) => c.data.id));
    if (ids.size !== changes.length)
      throw new InvalidInputError('HIPPOCAMPUS.TIER_BATCH_DUPLICATE', 'a tier batch names a memory twice');
    for (const c of changes) {
      const verdict = checkTierChange(c.data.from, c.data.to, 'SALIENCE');
      if (!verdict.ok)
        throw new InvalidInputError(
          'HIPPOCAMPUS.TIER_RULE',
          `${c.type} ${c.data.id} ${c.data.from}→${c.data.to} refused: ${verdict.reason}`,
        );
    }
    if (changes.length === 0) return [];
    const now = this.clock();
    const planned = new Map(
      changes.map((c) => [c.data.id, { command: c, ...salienceTierChange(c, sortableId('evt', now)) }]),
    );
    const rows = await this.graph.write<{ id: string; tier: string; store: string }>(Q.changeTiers, {
      changes: [...planned.values()].map((p) => p.change),
      now,
      ...auditParams(command.meta),
    });
    return rows.flatMap((row) => {
      const done = planned.get(row.id);
      if (!done) return [];
      const { id, from, to } = done.command.data;
      this.bus.publish(
        this.bus.message(
          'TierChanged',
          { id, store: row.store, from, to, reason: done.reason, by: 'SALIENCE' },
          'hippocampus',
          { cause: done.command.meta, messageId: done.change.eventId },
        ),
      );
      return [{ id, store: row.store, from, to }];
    });
  }

  /**
   * Memories stored before tier labels existed get the label of their tier
   * (Neo4j Browser styles nodes by label only), a batch at a time, once per
   * database: a marker then says it is done. Returns how many it labelled.
   */
  async labelTiers(batch = 10_000): Promise<number> {
    if ((await this.graph.read(Q.getMigration, { id: TIER_LABELS_MIGRATION })).length > 0) return 0;
    let total = 0;
    for (;;) {
      const labelled = Number(
        (await this.graph.write<{ labelled: number }>(Q.labelTiers, { limit: batch }))[0]?.labelled ?? 0,
      );
      total += labelled;
      if (labelled < batch) break;
    }
    await this.graph.write(Q.finishMigration, { id: TIER_LABELS_MIGRATION, now: this.clock() });
    return total;
  }

  // ── reads ─────────────────────────────────────────────────────────────────

  async get(id: string): Promise<MemoryRecord | null> {
    const rows = await this.graph.read<{ memory: Record<string, unknown> }>(Q.getMemory, { id });
    return rows[0] ? toMemoryRecord(rows[0].memory) : null;
  }

  async getMany(ids: readonly string[]): Promise<MemoryRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.graph.read<{ memory: Record<string, unknown> }>(Q.getMemories, { ids });
    return rows.map((r) => toMemoryRecord(r.memory));
  }

  /** A read by id is an access: recorded, counted and published as MemoryAccessed. */
  async access(id: string, cause: Meta): Promise<MemoryRecord> {
    const now = this.clock();
    const eventId = sortableId('evt', now);
    const rows = await this.graph.write<{ memory: Record<string, unknown> }>(Q.accessMemory, {
      id,
      now,
      eventId,
      sessionId: cause.sessionId,
      ...auditParams(cause),
    });
    const row = rows[0];
    if (!row) throw notFound(id);
    const memory = toMemoryRecord(row.memory);
    this.bus.publish(
      this.bus.message('MemoryAccessed', { id, store: memory.store, at: now }, 'hippocampus', {
        cause,
        messageId: eventId,
      }),
    );
    return memory;
  }

  async history(id: string, limit: number): Promise<MemoryEventRecord[]> {
    const rows = await this.graph.read<{ event: Record<string, unknown> }>(Q.memoryHistory, {
      id,
      limit: clampLimit(limit),
    });
    return rows.map((r) => toEventRecord(r.event)).reverse();
  }

  async events(store: string, after: string | null, limit: number): Promise<MemoryEventRecord[]> {
    const rows = await this.graph.read<{ event: Record<string, unknown> }>(Q.listEvents, {
      store,
      after: after ?? '',
      limit: clampLimit(limit),
    });
    return rows.map((r) => toEventRecord(r.event));
  }

  async consolidatedFrom(id: string): Promise<MemoryRecord[]> {
    const rows = await this.graph.read<{ memory: Record<string, unknown> }>(Q.consolidatedFrom, { id });
    return rows.map((r) => toMemoryRecord(r.memory));
  }

  /** Memories in these stores; null: in every store. */
  async count(stores: readonly string[] | null = null): Promise<number> {
    const rows =
      stores === null
        ? await this.graph.read<{ count: number }>(Q.countMemories)
        : await this.graph.read<{ count: number }>(Q.countStoreMemories, { stores: [...new Set(stores)] });
    return rows[0]?.count ?? 0;
  }

  // ── embeddings (derived data: computed off the request path, written here) ──

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

  /** Of these memories, the ones without an embedding of `model` (a client's own counts as done), with the text to embed. */
  async memoriesToEmbed(ids: readonly string[], model: string): Promise<EmbeddingWork[]> {
    if (ids.length === 0) return [];
    const rows = await this.graph.read<{ id: string; content: string; before: string | null; beforeId: string | null }>(
      Q.memoriesToEmbed,
      { ids: [...ids], model },
    );
    return rows.map((r) => ({ id: r.id, text: embeddingText(r.content, r.before), contextId: r.beforeId }));
  }

  /** A page of the ids of memories needing an embedding of `model` after `after` in id order (the backfill); `stores` null = all. */
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
      if (v.embedding.length !== this.limits.embeddingDimensions || !Array.from(v.embedding).every(Number.isFinite)) {
        throw new InvalidInputError(
          'HIPPOCAMPUS.EMBEDDING_DIMENSION',
          `embedding for ${v.id} must have ${this.limits.embeddingDimensions} finite numbers`,
        );
      }
    }
    const rows = await this.graph.write<{ id: string; store: string }>(Q.attachEmbeddings, {
      vectors: vectors.map((v) => ({ id: v.id, embedding: Array.from(v.embedding), contextId: v.contextId })),
      model,
      now: this.clock(),
    });
    this.announceEmbedded(rows);
    return rows.map((r) => r.id);
  }

  /** Marks memories whose embedding failed for good (FAILED; the backfill retries them). */
  async failEmbeddings(ids: readonly string[], reason: string): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.graph.write<{ id: string }>(Q.failEmbeddings, {
      ids: [...ids],
      reason: reason.slice(0, 1000),
      now: this.clock(),
    });
    return rows.map((r) => r.id);
  }

  /** Memories still PENDING an embedding that were stored before `before`, oldest first (the reconciliation re-queues them). */
  async stalledEmbeddings(before: number, limit: number, stores: readonly string[] | null): Promise<{ id: string }[]> {
    return this.graph.read<{ id: string }>(Q.stalledEmbeddings, {
      before,
      limit: clampLimit(limit),
      stores: stores ? [...stores] : null,
    });
  }

  /** MemoriesLinked: these memories wait for their links no longer (a lost one is linked again by the reconciliation). */
  async linked(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.graph.write<{ id: string }>(Q.clearLinkPending, { ids: [...ids] });
    return rows.map((r) => r.id);
  }

  private async readOne(tx: Tx, id: string): Promise<MemoryRecord> {
    const rows = await tx.run<{ memory: Record<string, unknown> }>(Q.getMemory, { id });
    if (!rows[0]) throw notFound(id);
    return toMemoryRecord(rows[0].memory);
  }

  /** Recall keeps small stores' vectors in process: one MemoriesEmbedded per store says which memories got one. */
  private announceEmbedded(memories: readonly { readonly id: string; readonly store: string }[], cause?: Meta): void {
    const byStore = new Map<string, string[]>();
    for (const m of memories) byStore.set(m.store, [...(byStore.get(m.store) ?? []), m.id]);
    for (const [store, ids] of byStore)
      this.bus.publish(this.bus.message('MemoriesEmbedded', { store, ids }, 'hippocampus', { cause }));
  }
}

/** The change-tiers row and the reason kept in the trail for one of Salience's requests. */
function salienceTierChange(command: PromoteTier | DemoteTier, eventId: string) {
  const { id, from, to, salience } = command.data;
  const reason =
    command.type === 'DemoteTier'
      ? command.data.reason
      : `salience ${salience.toFixed(3)} rose above the promotion threshold`;
  return { reason, change: { id, from, to, eventId, payload: json({ from, to, reason, by: 'SALIENCE', salience }) } };
}

function clampLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new InvalidInputError('HIPPOCAMPUS.INVALID_LIMIT', 'limit must be an integer from 1 to 1000');
  }
  return limit;
}

/** What MemoryStored keeps in the trail: the shape, never the content. */
function storedPayload(m: NewMemory): string {
  return json({
    tier: m.tier,
    tags: m.tags,
    people: m.people,
    emotions: m.emotions,
    occurredAt: m.occurredAt,
    sessionId: m.sessionId,
  });
}
