/**
 * What store-memories.cypher takes and gives back, and each memory's outcome
 * read from its rows: stored, a retry that changed nothing, ID_CONFLICT or ID_FORGOTTEN.
 */
import { InvalidInputError, type NewMemory, type Stored, memoryFromValues } from '../../domain/index.js';
import { sameMemory } from './validation.js';

export type { Stored } from '../../domain/index.js';

/** One memory's parameters for store-memories.cypher. */
export type StoreInput = Record<string, unknown>;

/** A single-memory store waiting for its group commit. */
export interface SingleStore {
  readonly input: StoreInput;
  readonly memory: NewMemory;
}

/** A row of store-memories.cypher. */
export type StoreRow = {
  /** Null where the id was forgotten (nothing written). */
  readonly memory: unknown[] | null;
  readonly created: boolean | null;
  readonly forgotten: boolean;
  readonly index: number;
};

/**
 * Each wanted memory's outcome from the statement's rows, matched by index
 * (two calls in one group may name the same id): stored, a retry that
 * changed nothing, ID_CONFLICT where the id is taken by a different memory,
 * or ID_FORGOTTEN where the store forgot a memory with this id.
 */
export function storedOutcomes(rows: readonly StoreRow[], wanted: readonly NewMemory[]): (Stored | Error)[] {
  const byIndex = new Map(rows.map((row) => [row.index, row]));
  return wanted.map((want, i) => {
    const row = byIndex.get(i);
    if (!row) return new Error(`store-memories returned no row for memory ${i} (${want.id})`);
    // Forgetting is for good: a retried store must not bring the memory back.
    if (row.forgotten || !row.memory) {
      return new InvalidInputError(
        'HIPPOCAMPUS.ID_FORGOTTEN',
        `id ${want.id} is of a memory store ${want.store} has forgotten; a forgotten memory is not stored again`,
        { id: want.id, store: want.store },
      );
    }
    const memory = memoryFromValues(row.memory);
    if (!row.created && !sameMemory(memory, want)) {
      return new InvalidInputError('HIPPOCAMPUS.ID_CONFLICT', `id ${memory.id} is taken by a different memory`, {
        id: memory.id,
      });
    }
    return { memory, created: row.created === true };
  });
}

export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
