/**
 * The graph port (src/domain/ports/graph.ts) on Neo4j: runs registered statements only, checks
 * that the parameters passed are exactly the ones the file declares, and
 * turns Neo4j values into plain JS (temporal values become epoch ms).
 */
import { isPoolTimeout, waitingForPool } from './pool-wait.js';
import neo4j, { Neo4jError, type BookmarkManager, type Driver, type ManagedTransaction } from 'neo4j-driver';
import type { QueryResult, Session, Transaction } from 'neo4j-driver';
import {
  IndexNotReadyError,
  type GraphPort,
  type Params,
  type Row,
  type Statement,
  type Tx,
} from '../../domain/index.js';
import { statementText } from './statements.js';
import { asUnavailable, outageOf } from '../outage.js';

export class CypherParamError extends Error {}

/** How long a write (a statement or a transaction) is retried on transient failures (deadlocks). */
const WRITE_RETRY_MS = 15_000;
/** Reads are retried briefly: a caller would rather ask again than wait. */
const READ_RETRY_MS = 300;
/**
 * While Neo4j cannot be reached, a call is retried this long and then fails
 * as UNAVAILABLE; once an outage is known, calls fail after one attempt until
 * one succeeds again (the driver reconnects by itself).
 */
const OUTAGE_RETRY_MS = 1_000;

/** The statement's body to send, once the params passed are exactly the ones its file declares. */
function checkParams(statement: Statement, params: Params): string {
  const { params: declaredParams, text } = statementText(statement);
  const passed = Object.keys(params).sort();
  const declared = [...declaredParams].sort();
  if (passed.length !== declared.length || passed.some((p, i) => p !== declared[i])) {
    throw new CypherParamError(`${statement.file}: declared params [${declared}] but got [${passed}]`);
  }
  return text;
}

export function toPlain(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  // strings, booleans, numbers (integers arrive as numbers): the bulk of every row
  if (typeof value !== 'object') return value;
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
 * A Float32Array (a question's vector) travels as a Bolt VECTOR: its 1.5 KB of bytes
 * go out in one copy, where a list of 384 floats is packed number by number
 * into 3.5 KB. Stored embeddings are written as lists (the index and the other
 * statements read them so).
 */
export function toNeo4jParams(value: unknown): unknown {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? neo4j.int(value) : value;
  if (value instanceof Float32Array) return neo4j.vector(value);
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

/** Neo4j's answer when a query needs an index that is still being built (GQL status 51N63). */
export function notReady(error: unknown): IndexNotReadyError | null {
  if (!(error instanceof Neo4jError) || error.code !== 'Neo.ClientError.Schema.IndexNotFound') return null;
  if (error.gqlStatus !== '51N63' && !/not ready yet/i.test(error.message)) return null;
  return new IndexNotReadyError(/Index `([^`]+)`/.exec(error.message)?.[1] ?? 'an');
}

/** The statement's file in a driver error's message (its stack is not recorded: runQuietly). */
function named(error: unknown, statement: Statement): unknown {
  if (error instanceof Neo4jError && !error.message.includes(statement.file))
    error.message = `${error.message} (${statement.file})`;
  return error;
}

function rows<R>(result: QueryResult): R[] {
  return result.records.map((record) => {
    const row: Record<string, unknown> = {};
    for (const key of record.keys) row[key as string] = toPlain(record.get(key));
    return row as R;
  });
}

function txOf(transaction: ManagedTransaction | Transaction): Tx {
  return {
    async run<R extends Row>(statement: Statement, params: Params = {}) {
      const text = checkParams(statement, params);
      try {
        return rows<R>(await runQuietly(() => transaction.run(text, toNeo4jParams(params) as Params)));
      } catch (error) {
        throw named(error, statement);
      }
    },
  };
}

export class Neo4jGraph implements GraphPort {
  /** When the current outage began (null: Neo4j answered last time). */
  private downSince: number | null = null;

  /**
   * The process's bookmarks (read-your-writes): every session of this graph
   * starts after the writes this process has committed, so a read routed to
   * another cluster member sees them. The driver's own manager, which
   * executeQuery uses too, so everything on one driver shares one causal chain.
   */
  private readonly bookmarks: BookmarkManager;

  constructor(
    private readonly driver: Driver,
    private readonly database: string,
  ) {
    this.bookmarks = driver.executeQueryBookmarkManager;
  }

  /** Whether Neo4j failed to answer the last call (health reports it as degraded). */
  get unreachableSince(): number | null {
    return this.downSince;
  }

  /**
   * One read statement in an auto-commit transaction: a single round trip
   * instead of begin/run/commit. Reads are safe to repeat, so a transient
   * failure is retried here briefly.
   */
  read<R extends Row = Row>(statement: Statement, params: Params = {}): Promise<R[]> {
    return waitingForPool(() => this.readOnce<R>(statement, params));
  }

  private async readOnce<R extends Row>(statement: Statement, params: Params): Promise<R[]> {
    const text = checkParams(statement, params);
    return this.retrying(READ_RETRY_MS, statement, () =>
      this.inSession(neo4j.session.READ, async (session) =>
        rows<R>(await runQuietly(() => session.run(text, toNeo4jParams(params) as Params))),
      ),
    ).catch((error: unknown) => {
      throw notReady(error) ?? error;
    });
  }

  /**
   * One write statement in an auto-commit transaction: a single round trip
   * instead of begin/run/commit. A transient failure (a deadlock, a lost
   * connection) is retried with backoff for up to about 15 s (an outage: 1 s);
   * a retried statement may run after a commit whose answer was lost, so
   * every write statement is idempotent.
   */
  write<R extends Row = Row>(statement: Statement, params: Params = {}): Promise<R[]> {
    return waitingForPool(() => this.writeOnce<R>(statement, params));
  }

  private async writeOnce<R extends Row>(statement: Statement, params: Params): Promise<R[]> {
    const text = checkParams(statement, params);
    return this.retrying(WRITE_RETRY_MS, statement, () =>
      this.inSession(neo4j.session.WRITE, async (session) =>
        rows<R>(await runQuietly(() => session.run(text, toNeo4jParams(params) as Params))),
      ),
    );
  }

  /** `work` in one write transaction, replayed on transient failures as write() is: it must be idempotent. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return waitingForPool(() =>
      this.retrying(WRITE_RETRY_MS, null, () =>
        this.inSession(neo4j.session.WRITE, (session) => inTransaction(session, work)),
      ),
    );
  }

  readTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return waitingForPool(() =>
      this.retrying(READ_RETRY_MS, null, () =>
        this.inSession(neo4j.session.READ, (session) => inTransaction(session, work)),
      ),
    );
  }

  private async inSession<T>(
    mode: typeof neo4j.session.READ | typeof neo4j.session.WRITE,
    use: (session: Session) => Promise<T>,
  ): Promise<T> {
    const session = this.driver.session({
      database: this.database,
      defaultAccessMode: mode,
      bookmarkManager: this.bookmarks,
    });
    try {
      return await use(session);
    } finally {
      await session.close().catch(() => undefined);
    }
  }

  /**
   * Runs `attempt` again on a retryable failure, with jittered backoff, for up
   * to `retryMs`. An outage gets its own short budget and then fails as a
   * typed UNAVAILABLE (outage.ts); once one is known, one attempt each.
   */
  private async retrying<T>(retryMs: number, statement: Statement | null, attempt: () => Promise<T>): Promise<T> {
    const started = Date.now();
    const knownDown = this.downSince !== null;
    for (let n = 1; ; n++) {
      try {
        const result = await attempt();
        this.downSince = null;
        return result;
      } catch (error) {
        // A full pool is not an outage: waitingForPool() decides whether to ask again (pool-wait.ts).
        if (isPoolTimeout(error)) throw error;
        const outage = outageOf(error) === 'neo4j';
        if (outage) this.downSince ??= Date.now();
        const budget = outage ? (knownDown ? 0 : OUTAGE_RETRY_MS) : retryMs;
        if (!(error instanceof Neo4jError && error.retriable) || Date.now() - started + backoffMs(n) / 2 > budget) {
          throw outage ? (asUnavailable(error, 'neo4j') as Error) : statement ? named(error, statement) : error;
        }
        await new Promise((resolve) => setTimeout(resolve, backoffMs(n) * (0.5 + Math.random())));
      }
    }
  }
}

const backoffMs = (attempt: number) => Math.min(1000, 25 * 2 ** attempt);

/** Begin, work, commit (rolled back on failure): the retries are retrying()'s, not the driver's. */
async function inTransaction<T>(session: Session, work: (tx: Tx) => Promise<T>): Promise<T> {
  const transaction = session.beginTransaction();
  try {
    const result = await work(txOf(transaction));
    await transaction.commit();
    return result;
  } catch (error) {
    if (transaction.isOpen()) await transaction.rollback().catch(() => undefined);
    throw error;
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
    // A server that does not answer a connect counts as down after this, not the driver's 30 s.
    connectionTimeout: 5_000,
  });
}
