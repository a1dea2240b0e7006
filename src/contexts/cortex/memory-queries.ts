/**
 * What Cortex asks Hippocampus and Synapse to read, as queries on the bus
 * under the caller's envelope (a port reaches another context only so).
 */
import {
  message,
  type Bus,
  type MemoryEventRecord,
  type MemoryRecord,
  type MessageOf,
  type MetaInit,
} from '../../domain/index.js';
import type { AssociationRecord } from '../synapse/index.js';

/** Memories by id, as stored (no access is recorded); unknown ids are left out. */
export function memoriesById(bus: Bus, ids: readonly string[], init: MetaInit = {}): Promise<MemoryRecord[]> {
  return bus.ask<MemoryRecord[]>(message('MemoriesQuery', { ids: [...ids] }, 'cortex', init));
}

export async function memoryById(bus: Bus, id: string, init: MetaInit = {}): Promise<MemoryRecord | null> {
  return (await memoriesById(bus, [id], init))[0] ?? null;
}

export function memoryHistory(bus: Bus, id: string, limit: number, init: MetaInit = {}): Promise<MemoryEventRecord[]> {
  return bus.ask<MemoryEventRecord[]>(message('MemoryHistoryQuery', { id, limit }, 'cortex', init));
}

export function memoryEvents(
  bus: Bus,
  data: MessageOf<'MemoryEventsQuery'>['data'],
  init: MetaInit = {},
): Promise<MemoryEventRecord[]> {
  return bus.ask<MemoryEventRecord[]>(message('MemoryEventsQuery', data, 'cortex', init));
}

export function consolidatedFrom(bus: Bus, id: string, init: MetaInit = {}): Promise<MemoryRecord[]> {
  return bus.ask<MemoryRecord[]>(message('ConsolidatedFromQuery', { id }, 'cortex', init));
}

export function associationsOf(
  bus: Bus,
  data: MessageOf<'AssociationsOfQuery'>['data'],
  init: MetaInit = {},
): Promise<AssociationRecord[]> {
  return bus.ask<AssociationRecord[]>(message('AssociationsOfQuery', data, 'cortex', init));
}

export function neighbourhoodOf(
  bus: Bus,
  data: MessageOf<'NeighbourhoodOfQuery'>['data'],
  init: MetaInit = {},
): Promise<AssociationRecord[]> {
  return bus.ask<AssociationRecord[]>(message('NeighbourhoodOfQuery', data, 'cortex', init));
}
