/**
 * The Backing Service Port to Neo4j: runs registered statements only, checks
 * that the parameters passed are exactly the ones the file declares, and
 * turns Neo4j values into plain JS (temporal values become epoch ms).
 */
import { waitingForPool } from './pool-wait.js';
import neo4j, { Neo4jError, type Driver, type ManagedTransaction, type QueryResult } from 'neo4j-driver';
import type { Statement } from './statements.js';

export type Params = Record<string, unknown>;
export type Row = Record<string, unknown>;

export interface Tx {
  run<R extends Row = Row>(statement: Statement, params?: Params): Promise<R[]>;
}

export interface GraphPort {
  read<R extends Row = Row>(statement: Statement, params?: Params): Promise<R[]>;
  write<R extends Row = Row>(statement: Statement, params?: Params): Promise<R[]>;
  /** One write transaction; the driver may replay `work`, so it must be idempotent. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  readTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
}

export class CypherParamError extends Error {}

/** How long a single write statement is retried on transient failures. */
const WRITE_RETRY_MS = 15_000;

function checkParams(statement: Statement, params: Params): void {
  const passed = Object.keys(params).sort();
  const declared = [...statement.params].sort();
  if (passed.length !== declared.length || passed.some((p, i) => p !== declared[i])) {
    throw new CypherParamError(`${statement.file}: declared params [${declared}] but got [${passed}]`);
  }
}

export function toPlain(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object') return value; // strings, booleans, numbers (integers arrive as numbers): the bulk of every row
  if (Array.isArray(value)) return value.map(toPlain);
  if (neo4j.isInt(value)) return (value as { toNumber(): number }).toNumber();
  if (neo4j.isDateTime(value as never) || neo4j.isDate(value as never) || neo4j.isLocalDateTime(value as never)) {
    return (value as { toStandardDate(): Date }).toStandardDate().getTime();
  }
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if ('properties' in v && 'labels' in v) return toPlain(v.properties);
    const out: Record<string, unknown> = {};
    for (const [k, inner] of Object.entries(v)) out[k] = toPlain(inner);
    return out;
  }
  return value;
}

/**
 * JS numbers travel as floats; Cypher wants integers for times and limits.
 * Integral scalars become Neo4j integers; lists of numbers (embeddings) stay floats.
 */
export function toNeo4jParams(value: unknown): unknown {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? neo4j.int(value) : value;
  if (Array.isArray(value)) return value.every((v) => typeof v === 'number') ? value : value.map(toNeo4jParams);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toNeo4jParams(v);
    return out;
  }
  return value;
}

/**
 * Starts a statement without the driver recording the caller's stack: it
 * formats one for every statement (through source maps when run with tsx,
 * about 0.1 ms each, a tenth of Recall's decoding work), only to show it if
 * the statement fails. A failure here names its statement file instead.
 */
function runQuietly(run: () => Promise<QueryResult>): Promise<QueryResult> {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return run();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** The statement's file in a driver error's message (its stack is not recorded: runQuietly). */
function named(error: unknown, statement: Statement): unknown {
  if (error instanceof Neo4jError && !error.message.includes(statement.file)) error.message = `${error.message} (${statement.file})`;
  return error;
}

function rows<R>(result: QueryResult): R[] {
  return result.records.map((record) => {
    const row: Record<string, unknown> = {};
    for (const key of record.keys) row[key as string] = toPlain(record.get(key));
    return row as R;
  });
}

function txOf(transaction: ManagedTransaction): Tx {
  return {
    async run<R extends Row>(statement: Statement, params: Params = {}) {
      checkParams(statement, params);
      try {
        return rows<R>(await runQuietly(() => transaction.run(statement.text, toNeo4jParams(params) as Params)));
      } catch (error) {
        throw named(error, statement);
      }
    },
  };
}

export class Neo4jGraph implements GraphPort {
  constructor(
    private readonly driver: Driver,
    private readonly database: string,
  ) {}

  /**
   * One read statement in an auto-commit transaction: a single round trip
   * instead of begin/run/commit. Reads are safe to repeat, so a transient
   * failure is retried here a few times.
   */
  read<R extends Row = Row>(statement: Statement, params: Params = {}): Promise<R[]> {
    return waitingForPool(() => this.readOnce<R>(statement, params));
  }

  private async readOnce<R extends Row>(statement: Statement, params: Params): Promise<R[]> {
    checkParams(statement, params);
    for (let attempt = 1; ; attempt++) {
      const session = this.driver.session({ database: this.database, defaultAccessMode: neo4j.session.READ });
      try {
        return rows<R>(await runQuietly(() => session.run(statement.text, toNeo4jParams(params) as Params)));
      } catch (error) {
        if (attempt >= 3 || !(error instanceof Neo4jError && error.retriable)) throw named(error, statement);
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      } finally {
        await session.close();
      }
    }
  }

  /**
   * One write statement in an auto-commit transaction: a single round trip
   * instead of begin/run/commit. A transient failure (a deadlock, a lost
   * connection) is retried here with backoff for up to about 15 s; as with
   * the driver's own retries of a transaction function, a retried statement
   * may run after a commit whose answer was lost, so every write statement is
   * idempotent.
   */
  write<R extends Row = Row>(statement: Statement, params: Params = {}): Promise<R[]> {
    return waitingForPool(() => this.writeOnce<R>(statement, params));
  }

  private async writeOnce<R extends Row>(statement: Statement, params: Params): Promise<R[]> {
    checkParams(statement, params);
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      const session = this.driver.session({ database: this.database });
      try {
        return rows<R>(await runQuietly(() => session.run(statement.text, toNeo4jParams(params) as Params)));
      } catch (error) {
        if (!(error instanceof Neo4jError && error.retriable) || Date.now() - started > WRITE_RETRY_MS) throw named(error, statement);
        await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt) * (0.5 + Math.random())));
      } finally {
        await session.close();
      }
    }
  }

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return waitingForPool(() => this.transactionOnce(work));
  }

  private async transactionOnce<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const session = this.driver.session({ database: this.database });
    try {
      return await session.executeWrite((t) => work(txOf(t)));
    } finally {
      await session.close();
    }
  }

  readTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return waitingForPool(() => this.readTransactionOnce(work));
  }

  private async readTransactionOnce<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const session = this.driver.session({ database: this.database, defaultAccessMode: neo4j.session.READ });
    try {
      return await session.executeRead((t) => work(txOf(t)));
    } finally {
      await session.close();
    }
  }
}

/** Where a Neo4j database is and how to sign in (NEO4J_URI, NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE). */
export interface Neo4jSettings {
  readonly uri: string;
  readonly user: string;
  readonly password: string;
  readonly database: string;
}

/**
 * A caller waiting longer than `acquisitionTimeoutMs` for a pooled connection
 * gets an error at once (the API answers UNAVAILABLE, retryable) instead of
 * hanging while others hold the pool.
 */
export function createDriver(uri: string, user: string, password: string, acquisitionTimeoutMs = 30_000): Driver {
  const auth = password ? neo4j.auth.basic(user, password) : undefined;
  return neo4j.driver(uri, auth, {
    disableLosslessIntegers: true,
    maxConnectionPoolSize: 64,
    connectionAcquisitionTimeout: acquisitionTimeoutMs,
  });
}
