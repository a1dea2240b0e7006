/**
 * The port to the graph database: the contexts run registered statements
 * through it (src/adapters/neo4j implements it). Rows come back as plain JS,
 * times as epoch ms.
 */
import type { Statement } from './statements.js';

export type Params = Record<string, unknown>;
export type Row = Record<string, unknown>;

export interface Tx {
  run<R extends Row = Row>(statement: Statement, params?: Params): Promise<R[]>;
}

export interface GraphPort {
  read<R extends Row = Row>(statement: Statement, params?: Params): Promise<R[]>;
  write<R extends Row = Row>(statement: Statement, params?: Params): Promise<R[]>;
  /** One write transaction; the adapter may replay `work`, so it must be idempotent. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  readTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
}
