/**
 * What Cortex asks Hippocampus and Synapse to read, as queries on the bus
 * under the caller's envelope (a port reaches another context only so).
 */
import type { Bus, MemoryEventRecord, MemoryRecord, MessageOf, MetaInit } from '../../domain/index.js';
import type { AssociationRecord } from '../../domain/index.js';

/** Memories by id, as stored (no access is recorded); unknown ids are left out. */
export function memoriesById(bus: Bus, ids: readonly string[], init: MetaInit = {}): Promise<MemoryRecord[]> {
  return bus.ask(bus.message('MemoriesQuery', { ids: [...ids] }, 'cortex', init));
}

export async function memoryById(bus: Bus, id: string, init: MetaInit = {}): Promise<MemoryRecord | null> {
  return (await memoriesById(bus, [id], init))[0] ?? null;
}

export function memoryHistory(bus: Bus, id: string, limit: number, init: MetaInit = {}): Promise<MemoryEventRecord[]> {
  return bus.ask(bus.message('MemoryHistoryQuery', { id, limit }, 'cortex', init));
}

export function memoryEvents(
  bus: Bus,
  data: MessageOf<'MemoryEventsQuery'>['data'],
  init: MetaInit = {},
): Promise<MemoryEventRecord[]> {
  return bus.ask(bus.message('MemoryEventsQuery', data, 'cortex', init));
}

export function consolidatedFrom(bus: Bus, id: string, init: MetaInit = {}): Promise<MemoryRecord[]> {
  return bus.ask(bus.message('ConsolidatedFromQuery', { id }, 'cortex', init));
}

export function associationsOf(
  bus: Bus,
  data: MessageOf<'AssociationsOfQuery'>['data'],
  init: MetaInit = {},
): Promise<AssociationRecord[]> {
  return bus.ask(bus.message('AssociationsOfQuery', data, 'cortex', init));
}

export function neighbourhoodOf(
  bus: Bus,
  data: MessageOf<'NeighbourhoodOfQuery'>['data'],
  init: MetaInit = {},
): Promise<AssociationRecord[]> {
  return bus.ask(bus.message('NeighbourhoodOfQuery', data, 'cortex', init));
}
