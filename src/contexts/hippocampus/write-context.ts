/**
 * What every write of Hippocampus shares: the graph, the bus, the clock and
 * limits, and the audit fields a write statement takes from its command.
 */
import { NotFoundError, type Bus, type Meta, type GraphPort } from '../../domain/index.js';
import type { StoreLimits } from './validation.js';

export interface WriteContext {
  readonly graph: GraphPort;
  readonly bus: Bus;
  readonly limits: StoreLimits;
  readonly clock: () => number;
  /** Whether Synapse links stored memories (each then waits for it: linkPendingAt). */
  readonly linking: boolean;
}

export const notFound = (id: string) =>
  new NotFoundError('HIPPOCAMPUS.MEMORY_NOT_FOUND', `no memory with id ${id}`, { id });

export const json = (value: unknown) => JSON.stringify(value);

/** The audit fields every write statement takes from the command's envelope. */
export function auditParams(meta: Meta) {
  return { commandId: meta.messageId, correlationId: meta.correlationId };
}

/** Recall keeps small stores' vectors in process: one MemoriesEmbedded per store says which memories got one. */
export function announceEmbedded(
  bus: Bus,
  memories: readonly { readonly id: string; readonly store: string }[],
  cause?: Meta,
): void {
  const byStore = new Map<string, string[]>();
  for (const m of memories) byStore.set(m.store, [...(byStore.get(m.store) ?? []), m.id]);
  for (const [store, ids] of byStore)
    bus.publish(bus.message('MemoriesEmbedded', { store, ids }, 'hippocampus', { cause }));
}
