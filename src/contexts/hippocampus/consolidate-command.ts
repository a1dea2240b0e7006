/**
 * ConsolidateCommand: several memories of one store merged into a new one
 * that keeps them as its originals (consolidation.ts decides the content).
 */
import {
  InvalidInputError,
  NotFoundError,
  newMemoryId,
  sortableId,
  storeKeyOf,
  type ConsolidateCommand,
  type MemoryRecord,
  toMemoryRecord,
  withinReach,
} from '../../domain/index.js';
import { Q } from './cypher.js';
import { consolidate, consolidatedMetadata, MAX_CONSOLIDATED } from './consolidation.js';
import { auditParams, json, type WriteContext } from './write-context.js';
import { checkWellFormedContent } from './validation.js';

export async function consolidateMemories(ctx: WriteContext, command: ConsolidateCommand): Promise<MemoryRecord> {
  if (command.data.ids.length > MAX_CONSOLIDATED)
    throw new InvalidInputError(
      'HIPPOCAMPUS.CONSOLIDATE_TOO_MANY',
      `at most ${MAX_CONSOLIDATED} memories per consolidation, got ${command.data.ids.length}`,
      { max: MAX_CONSOLIDATED },
    );
  const ids = [...new Set(command.data.ids)];
  if (ids.length < 2)
    throw new InvalidInputError(
      'HIPPOCAMPUS.CONSOLIDATE_TOO_FEW',
      'consolidation needs at least two distinct memories',
    );
  if (command.data.content) checkWellFormedContent(command.data.content);
  const now = ctx.clock();
  const newId = newMemoryId();
  const storedEventId = sortableId('evt', now);
  const consolidatedEventId = sortableId('evt', now);
  const memory = await ctx.graph.transaction(async (tx) => {
    // A memory outside the caller's reach is missing to it: the same error, so it learns nothing of other stores.
    const found = (await tx.run<{ memory: Record<string, unknown> }>(Q.getMemories, { ids }))
      .map((r) => toMemoryRecord(r.memory))
      .filter((m) => withinReach(command.data.reach, m.store));
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
    // Locked before the check, so two overlapping consolidations of one memory cannot both pass it.
    const taken = (await tx.run<{ id: string }>(Q.lockConsolidationOriginals, { ids, newId })).map((r) => r.id);
    if (taken.length > 0)
      throw new InvalidInputError(
        'HIPPOCAMPUS.ALREADY_CONSOLIDATED',
        `memories ${taken.join(', ')} are consolidated into another memory already`,
        { ids: taken },
      );
    const merged = consolidate(found, command.data.strategy, command.data.content);
    if (Buffer.byteLength(merged.content, 'utf8') > ctx.limits.maxContentBytes) {
      throw new InvalidInputError(
        'HIPPOCAMPUS.CONTENT_TOO_LARGE',
        `the consolidated content is over ${ctx.limits.maxContentBytes} bytes; use SUMMARIZE`,
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
      linking: ctx.linking,
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
  const cause = { cause: command.meta };
  ctx.bus.publish(ctx.bus.message('MemoryStored', { memory }, 'hippocampus', { ...cause, messageId: storedEventId }));
  ctx.bus.publish(
    ctx.bus.message('MemoryConsolidated', { memory, from: ids, strategy: command.data.strategy }, 'hippocampus', {
      ...cause,
      messageId: consolidatedEventId,
    }),
  );
  return memory;
}
