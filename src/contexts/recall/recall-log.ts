/**
 * The recall log: every recall a mind was given, the uses it made of it and
 * the outcomes it reported, each written with its audit event and then
 * published (MemoryRetrieved, MemoryUsed, OutcomeReported).
 */
import {
  jsonArgumentText,
  NOT_WELL_FORMED,
  NotFoundError,
  sortableId,
  type Bus,
  type Meta,
  type OutcomeKind,
  type Reach,
  type UseRecord,
  inBackground,
  type GraphPort,
} from '../../domain/index.js';
import { Q } from './cypher.js';
import { invalid } from './search-request.js';
import type { RankedHit } from './scoring.js';

export type { UseRecord } from '../../domain/index.js';

const reaches = (stores: Reach, store: string) => stores === null || stores.includes(store);

export class RecallLog {
  /** Recalls answered whose record is still being written, by recall id. */
  private readonly pending = new Map<string, Promise<void>>();

  constructor(
    private readonly graph: GraphPort,
    private readonly bus: Bus,
    private readonly clock: () => number,
    /** Where a failed record is reported (the app's logger). */
    private readonly warn: (line: string) => void = () => undefined,
  ) {}

  /**
   * Records a recall off the answer's path: the caller gets its hits without
   * waiting for the write; markUsed waits for it, and flush() drains them all.
   */
  record(store: string, query: string, hits: readonly RankedHit[], cause: Meta): string {
    const now = this.clock();
    const id = sortableId('rcl', now);
    const eventId = sortableId('evt', now);
    const hitIds = hits.map((h) => h.memory.id);
    // Behind the answer: a briefly full pool must not lose the record.
    const write = inBackground(() =>
      this.graph.write(Q.recordRecall, {
        id,
        store,
        query,
        hitIds,
        now,
        eventId,
        payload: JSON.stringify({
          recallId: id,
          query,
          hitIds,
          confidences: hits.map((h) => Math.round(h.confidence * 1000) / 1000),
        }),
        correlationId: cause.correlationId,
        sessionId: cause.sessionId,
      }),
    )
      .then(() => {
        const data = { recallId: id, store, ids: hitIds, query };
        this.bus.publish(this.bus.message('MemoryRetrieved', data, 'recall', { cause, messageId: eventId }));
      })
      .catch((error: unknown) => this.warn(`[recall] could not record recall ${id}: ${(error as Error).message}`))
      .finally(() => this.pending.delete(id));
    this.pending.set(id, write);
    return id;
  }

  /** Waits until every recall answered so far is recorded. */
  async flush(): Promise<void> {
    await Promise.all(this.pending.values());
  }

  /** Which of a recall's memories were used (null: all it offered). */
  async markUsed(
    recallId: string,
    memoryIds: readonly string[] | null,
    action: unknown,
    cause: Meta,
    stores: Reach = null,
  ): Promise<UseRecord> {
    // Refused before anything is read, as GraphQL's JSON scalar refuses it before the call.
    const actionText = action === undefined || action === null ? null : jsonArgumentText(action);
    await this.pending.get(recallId);
    const recall = (await this.graph.read<{ recall: Record<string, unknown> }>(Q.getRecall, { id: recallId }))[0]
      ?.recall;
    if (!recall || !reaches(stores, String(recall.store)))
      throw new NotFoundError('RECALL.RECALL_NOT_FOUND', `no recall with id ${recallId}`);
    const offered = (recall.hitIds as string[]) ?? [];
    const used = memoryIds === null ? offered : [...new Set(memoryIds)];
    const foreign = used.filter((id) => !offered.includes(id));
    if (foreign.length > 0) throw invalid('NOT_IN_RECALL', `recall ${recallId} did not offer ${foreign.join(', ')}`);
    // A use of nothing would teach ranking nothing, and its outcome would look recorded.
    if (used.length === 0)
      throw invalid(
        'NOTHING_USED',
        memoryIds === null
          ? `recall ${recallId} offered no memories to use`
          : 'memoryIds names no memory: name the ones used, or leave it out for all the recall offered',
      );
    const now = this.clock();
    const id = sortableId('use', now);
    const eventId = sortableId('evt', now);
    const rows = await this.graph.write<{ use: Record<string, unknown> }>(Q.recordUse, {
      id,
      recallId,
      memoryIds: used,
      action: actionText,
      now,
      eventId,
      payload: JSON.stringify({ useId: id, recallId, memoryIds: used }),
      correlationId: cause.correlationId,
      sessionId: cause.sessionId,
    });
    const use = toUse((rows[0] as { use: Record<string, unknown> }).use);
    const data = { useId: id, recallId, store: String(recall.store), memoryIds: used };
    this.bus.publish(this.bus.message('MemoryUsed', data, 'recall', { cause, messageId: eventId }));
    return use;
  }

  /** How a use turned out; `stores` null: the use is not looked up first (the caller reaches every store). */
  async reportOutcome(
    useId: string,
    outcome: OutcomeKind,
    note: string | null,
    cause: Meta,
    stores: Reach = null,
  ): Promise<UseRecord> {
    if (note !== null && note.length > 4000) throw invalid('NOTE_TOO_LONG', 'note must be at most 4000 characters');
    if (note !== null && !note.isWellFormed()) throw invalid('INVALID_NOTE', `note ${NOT_WELL_FORMED}`);
    if (stores !== null) {
      const known = (await this.graph.read<{ use: Record<string, unknown> }>(Q.getUse, { id: useId }))[0];
      if (!known || !reaches(stores, String(known.use.store)))
        throw new NotFoundError('RECALL.USE_NOT_FOUND', `no use with id ${useId}`);
    }
    const now = this.clock();
    const eventId = sortableId('evt', now);
    const rows = await this.graph.write<{ use: Record<string, unknown> }>(Q.reportOutcome, {
      id: useId,
      outcome,
      note,
      now,
      eventId,
      payload: JSON.stringify({ useId, outcome }),
      correlationId: cause.correlationId,
      sessionId: cause.sessionId,
    });
    const row = rows[0];
    if (!row) throw new NotFoundError('RECALL.USE_NOT_FOUND', `no use with id ${useId}`);
    const use = toUse(row.use);
    const store = String(row.use.store);
    const data = { useId, store, memoryIds: use.memoryIds, outcome };
    this.bus.publish(this.bus.message('OutcomeReported', data, 'recall', { cause, messageId: eventId }));
    return use;
  }
}

function toUse(row: Record<string, unknown>): UseRecord {
  return {
    id: String(row.id),
    recallId: String(row.recallId),
    memoryIds: Array.isArray(row.memoryIds) ? row.memoryIds.map(String) : [],
    outcome: (row.outcome as OutcomeKind | undefined) ?? null,
    at: Number(row.at),
  };
}
