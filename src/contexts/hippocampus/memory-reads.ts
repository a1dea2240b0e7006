/**
 * Hippocampus's reads: memories by id as stored (no access recorded), their
 * audit trail, a store's events and counts.
 */
import {
  InvalidInputError,
  type MemoryEventRecord,
  type MemoryRecord,
  type GraphPort,
  toEventRecord,
  toMemoryRecord,
} from '../../domain/index.js';
import { Q } from './cypher.js';

export class MemoryReads {
  constructor(private readonly graph: GraphPort) {}

  async get(id: string): Promise<MemoryRecord | null> {
    const rows = await this.graph.read<{ memory: Record<string, unknown> }>(Q.getMemory, { id });
    return rows[0] ? toMemoryRecord(rows[0].memory) : null;
  }

  async getMany(ids: readonly string[]): Promise<MemoryRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.graph.read<{ memory: Record<string, unknown> }>(Q.getMemories, { ids });
    return rows.map((r) => toMemoryRecord(r.memory));
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
}

export function clampLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new InvalidInputError('HIPPOCAMPUS.INVALID_LIMIT', 'limit must be an integer from 1 to 1000');
  }
  return limit;
}
