/**
 * The write gate: each command about memories is validated, written together
 * with its audit event in one transaction, and only then published as an
 * event to the other contexts. (Consolidation and Salience's tier batches
 * have their own files; shutdown admission wraps every one of them.)
 */
import {
  ConcurrentChangeError,
  InvalidInputError,
  isTier,
  parseJsonText,
  sortableId,
  storeKeyOf,
  type Bus,
  type ClaimCommand,
  type ForgetCommand,
  type ForgetOutcome,
  type Meta,
  type MemoryRecord,
  type NewMemory,
  type ReclassifyCommand,
  type StoreCommand,
  type GraphPort,
  type Tx,
  toMemoryRecord,
} from '../../domain/index.js';
import { Q } from './cypher.js';
import { keepingConsolidation, withoutForgottenOriginal } from './consolidation.js';
import { atBatchIndex, validateBatch, validateMetadata, validateReason, type StoreLimits } from './validation.js';
import { GroupCommit, STORE_GROUP, type GroupCommitSettings } from './group-commit.js';
import {
  asError,
  storedOutcomes,
  type SingleStore,
  type Stored,
  type StoreInput,
  type StoreRow,
} from './store-outcomes.js';
import { announceEmbedded, auditParams, json, notFound, type WriteContext } from './write-context.js';

export type { ForgetOutcome } from '../../domain/index.js';

export class WriteGate {
  private readonly graph: GraphPort;
  private readonly bus: Bus;
  private readonly limits: StoreLimits;
  private readonly clock: () => number;
  private readonly linking: boolean;
  /** Concurrent single-memory stores, committed together (group-commit.ts). */
  private readonly singles: GroupCommit<SingleStore, Stored>;

  constructor(ctx: WriteContext, groupCommit: GroupCommitSettings = STORE_GROUP) {
    this.graph = ctx.graph;
    this.bus = ctx.bus;
    this.limits = ctx.limits;
    this.clock = ctx.clock;
    this.linking = ctx.linking;
    this.singles = new GroupCommit((group) => this.commitSingles(group), groupCommit);
  }

  async store(command: StoreCommand): Promise<Stored[]> {
    const now = this.clock();
    const given = validateBatch(command.data.memories, this.limits, now);
    // An exact repeat of an id (a retry inside the batch) is written once, as its first input.
    const firstOfId = new Map<string, NewMemory>();
    for (const m of given) if (!firstOfId.has(m.id)) firstOfId.set(m.id, m);
    const memories = [...firstOfId.values()];
    const events = new Map(memories.map((m) => [m.id, sortableId('evt', now)]));
    const audit = auditParams(command.meta);
    // Only a client's id can be one its store forgot: a generated one is not looked up.
    const clientIds = new Set(
      given.filter((_, i) => typeof command.data.memories[i]?.id === 'string').map((m) => m.id),
    );
    const inputs = memories.map((m, index) => ({
      ...m,
      clientId: clientIds.has(m.id),
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
      given.length === 1
        ? [await this.singles.submit({ input: inputs[0] as StoreInput, memory: memories[0] as NewMemory })]
        : await this.graph.transaction(async (tx) => {
            const rows = await tx.run<StoreRow>(Q.storeMemories, { memories: inputs, linking: this.linking });
            return storedOutcomes(rows, memories).map((outcome, i) => {
              if (outcome instanceof InvalidInputError) throw atBatchIndex(outcome, given.indexOf(memories[i]!));
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
    announceEmbedded(
      this.bus,
      memories.filter((m, i) => m.embedding && stored[i]?.created),
      command.meta,
    );
    // One answer per input: a repeat gets the memory its first input stored, not created again.
    const outcomes = new Map(stored.map((s) => [s.memory.id, s]));
    return given.map((m) => {
      const s = outcomes.get(m.id) as Stored;
      return firstOfId.get(m.id) === m ? s : { ...s, created: false };
    });
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
    const metadataText = validateMetadata(metadata);
    const now = this.clock();
    const eventId = sortableId('evt', now);
    const tierEventId = sortableId('evt', now);
    const { memory, from } = await this.graph.transaction(async (tx) => {
      const current = await this.readOne(tx, id);
      const payload = json({ from: current.tier, to: tier, reason, by: 'MIND' });
      const written = keepingConsolidation(metadata, current.metadata);
      const rows = await tx.run<{ memory: Record<string, unknown> }>(Q.reclassifyMemory, {
        id,
        from: current.tier,
        tier,
        metadata: written === metadata ? metadataText : JSON.stringify(written),
        now,
        eventId,
        tierEventId,
        payload,
        sessionId: command.meta.sessionId,
        ...auditParams(command.meta),
      });
      if (!rows[0]) throw new ConcurrentChangeError(`the tier of memory ${id}`, { id });
      return { memory: toMemoryRecord(rows[0].memory), from: current.tier };
    });
    const cause = { cause: command.meta };
    this.bus.publish(
      this.bus.message(
        'MemoryReclassified',
        { id, store: memory.store, from, to: memory.tier, reason },
        'hippocampus',
        { ...cause, messageId: eventId },
      ),
    );
    if (from !== memory.tier) {
      this.bus.publish(
        this.bus.message(
          'TierChanged',
          { id, store: memory.store, from, to: memory.tier, reason, by: 'MIND' },
          'hippocampus',
          { ...cause, messageId: tierEventId },
        ),
      );
    }
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
    const { store, embeddedWith, consolidatedInto } = await this.graph.transaction(async (tx) => {
      const rows = await tx.run<{
        store: string;
        embeddedWith: string[];
        consolidations: { id: string; metadata: string | null }[];
      }>(Q.forgetMemory, {
        id,
        now,
        eventId,
        payload: json({ reason }),
        sessionId: command.meta.sessionId,
        ...auditParams(command.meta),
      });
      const row = rows[0];
      if (row) {
        for (const c of row.consolidations) {
          const redacted = withoutForgottenOriginal(parseJsonText(c.metadata), id);
          if (redacted) await tx.run(Q.redactConsolidatedOriginal, { id: c.id, metadata: JSON.stringify(redacted) });
        }
        return { ...row, consolidatedInto: row.consolidations.map((c) => c.id).sort() };
      }
      // A replay of a transaction that did commit finds its own tombstone (the
      // memories it cleared wait as PENDING for the next backfill).
      const tombstone = await tx.run<{ event: Record<string, unknown> }>(Q.getEvent, { id: eventId });
      if (tombstone[0]) return { store: String(tombstone[0].event.store), embeddedWith: [], consolidatedInto: [] };
      throw notFound(id);
    });
    this.bus.publish(
      this.bus.message('MemoryForgotten', { id, store, reason, embeddedWith }, 'hippocampus', {
        cause: command.meta,
        messageId: eventId,
      }),
    );
    return { id, forgotten: true, consolidatedInto };
  }

  /** A read by id is an access, so it is a write: recorded, counted and published as MemoryAccessed. */
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

  /** MemoriesLinked: these memories wait for their links no longer (a lost one is relinked by the reconciliation). */
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
