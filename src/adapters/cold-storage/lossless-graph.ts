/**
 * Cold storage reads and writes Neo4j values exactly: its own driver keeps
 * integers as Integer (the app's driver turns them into JS numbers) and
 * temporal values as they are, and streams results instead of buffering them.
 * Statements are registered files; the params passed must be the declared ones.
 */
import neo4j, { type Driver, type RecordShape } from 'neo4j-driver';
import type { Statement } from '../../domain/index.js';
import { statementText, type Neo4jSettings } from '../neo4j/index.js';

/** The statement's body to send, once the params passed are exactly the ones its file declares. */
function checkParams(statement: Statement, params: Record<string, unknown>): string {
  const { params: declaredParams, text } = statementText(statement);
  const passed = Object.keys(params).sort().join(',');
  const declared = [...declaredParams].sort().join(',');
  if (passed !== declared) throw new Error(`${statement.file}: declared params [${declared}] but got [${passed}]`);
  return text;
}

/**
 * How a long read gives way to requests: called after each piece of rows with the time the piece took, it resolves
 * when the read may go on (null: it never waits).
 */
export type Pace = (tookMs: number) => Promise<void>;

/** Rows handed over between two calls of the pace (a few milliseconds' work). */
const ROWS_PER_PIECE = 100;

export class LosslessGraph {
  private readonly driver: Driver;

  constructor(
    private readonly settings: Neo4jSettings,
    private readonly pace: Pace | null = null,
  ) {
    const auth = settings.password ? neo4j.auth.basic(settings.user, settings.password) : undefined;
    this.driver = neo4j.driver(settings.uri, auth, { disableLosslessIntegers: false, maxConnectionPoolSize: 4 });
  }

  /**
   * Streams a read's rows to `onRow`, one at a time (an auto-commit query: a
   * retried transaction function would hand the same rows over twice), in
   * pieces paced by `pace`.
   */
  async stream(
    statement: Statement,
    params: Record<string, unknown>,
    onRow: (row: RecordShape) => void | Promise<void>,
  ): Promise<void> {
    const text = checkParams(statement, params);
    const session = this.driver.session({ database: this.settings.database, defaultAccessMode: neo4j.session.READ });
    try {
      let rows = 0;
      let pieceStart = performance.now();
      for await (const record of session.run(text, params)) {
        await onRow(record.toObject());
        if (this.pace && ++rows % ROWS_PER_PIECE === 0) {
          await this.pace(performance.now() - pieceStart);
          pieceStart = performance.now();
        }
      }
    } finally {
      await session.close();
    }
  }

  /** One write (or schema) statement in its own transaction. */
  async run(statement: Statement, params: Record<string, unknown> = {}): Promise<RecordShape[]> {
    const text = checkParams(statement, params);
    const session = this.driver.session({ database: this.settings.database });
    try {
      const result = await session.run(text, params);
      return result.records.map((r) => r.toObject());
    } finally {
      await session.close();
    }
  }

  close(): Promise<void> {
    return this.driver.close();
  }
}
