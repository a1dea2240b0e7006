/** The outage mapping: which failures are a backing service being away (UNAVAILABLE) and which are not. */
import { describe, expect, it } from 'vitest';
import { Neo4jError } from 'neo4j-driver';
import { asUnavailable, outageOf } from '../../src/adapters/outage.js';
import { InvalidInputError, UnavailableError } from '../../src/domain/index.js';
import { formatError } from '../../src/adapters/graphql/testing.js';
import { degradedParts } from '../../src/app.js';
import { notReady } from '../../src/adapters/neo4j/graph.js';
import { IndexNotReadyError } from '../../src/domain/index.js';

const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:6380`), { code });

describe('outageOf', () => {
  it(
    'names Neo4j for ServiceUnavailable, SessionExpired, a database that is starting and a pool ' +
      'that gave no connection',
    () => {
      expect(outageOf(new Neo4jError('Could not perform discovery', 'ServiceUnavailable', '', ''))).toBe('neo4j');
      expect(outageOf(new Neo4jError('gone', 'SessionExpired', '', ''))).toBe('neo4j');
      expect(outageOf(new Neo4jError('starting', 'Neo.TransientError.General.DatabaseUnavailable', '', ''))).toBe(
        'neo4j',
      );
      expect(
        outageOf(
          new Neo4jError(
            'Connection acquisition timed out in 30000 ms. Pool status: Active conn count = 64',
            'N/A',
            '',
            '',
          ),
        ),
      ).toBe('neo4j');
    },
  );

  it('names Redis for refused, reset or closed connections and ioredis giving up', () => {
    expect(outageOf(socketError('ECONNREFUSED'))).toBe('redis');
    expect(outageOf(new Error('Connection is closed.'))).toBe('redis');
    expect(
      outageOf(
        Object.assign(new Error('Reached the max retries per request limit (which is 1).'), {
          name: 'MaxRetriesPerRequestError',
        }),
      ),
    ).toBe('redis');
  });

  it('leaves every other failure alone, including Neo4j errors that are not outages', () => {
    expect(
      outageOf(new Neo4jError('Deadlock detected', 'Neo.TransientError.Transaction.DeadlockDetected', '', '')),
    ).toBeNull();
    expect(outageOf(new Neo4jError('syntax', 'Neo.ClientError.Statement.SyntaxError', '', ''))).toBeNull();
    expect(outageOf(new InvalidInputError('HIPPOCAMPUS.CONTENT_EMPTY', 'empty'))).toBeNull();
    expect(outageOf(new Error('something else'))).toBeNull();
    expect(outageOf('not an error')).toBeNull();
  });

  it('finds an outage in the cause chain', () => {
    expect(outageOf(new Error('store failed', { cause: new Neo4jError('gone', 'SessionExpired', '', '') }))).toBe(
      'neo4j',
    );
  });
});

describe('UNAVAILABLE to the client', () => {
  it('is typed and retryable with a hint, whatever raised it', () => {
    const wrapped = asUnavailable(new Neo4jError('x', 'ServiceUnavailable', '', ''));
    expect(wrapped).toBeInstanceOf(UnavailableError);
    expect(wrapped).toMatchObject({ code: 'UNAVAILABLE', retryAfterMs: 1000, service: 'neo4j' });
    const formatted = formatError(
      { message: 'x', extensions: { code: 'INTERNAL_SERVER_ERROR' } },
      new Neo4jError('x', 'ServiceUnavailable', '', ''),
    );
    expect(formatted.extensions).toMatchObject({
      code: 'UNAVAILABLE',
      retryAfterMs: 1000,
      details: { service: 'neo4j' },
    });
    expect(formatted.message).toMatch(/^neo4j is unavailable/);
  });

  it('a full pool is UNAVAILABLE with its retry hint too (formatError has no other path for it)', () => {
    const full = new Neo4jError(
      'Connection acquisition timed out in 1000 ms. Pool status: Active conn count = 64, Idle conn count = 0.',
      'N/A',
      '',
      '',
    );
    const formatted = formatError({ message: 'x', extensions: { code: 'INTERNAL_SERVER_ERROR' } }, full);
    expect(formatted.extensions).toMatchObject({
      code: 'UNAVAILABLE',
      retryable: true,
      retryAfterMs: 1000,
      details: { service: 'neo4j' },
    });
  });

  it('is not what other failures become', () => {
    expect(asUnavailable(new Error('bug'))).toBeNull();
  });
});

describe('health.degraded', () => {
  it('lists each part that is down and what it costs, and nothing when all is up', () => {
    expect(degradedParts({ neo4j: true, redis: true, embeddings: 'ready' })).toEqual([]);
    expect(degradedParts({ neo4j: true, redis: true, embeddings: 'disabled' })).toEqual([]);
    const all = degradedParts({ neo4j: false, redis: false, embeddings: 'missing: no model.onnx' });
    expect(all).toHaveLength(3);
    expect(all[0]).toMatch(/^neo4j: unreachable; requests fail with UNAVAILABLE/);
    expect(all[1]).toMatch(/^redis: unreachable; stores and searches go on/);
    expect(all[2]).toBe('embeddings: missing: no model.onnx; recall is lexical only');
  });
});

describe('an index Neo4j is still building', () => {
  it("turns Neo4j's 51N63 into INDEX_NOT_READY naming the index, and leaves other errors alone", () => {
    // As Neo4j 2026.08 answers a SEARCH on a vector index while it populates.
    const populating = new Neo4jError(
      '51N63: Index `memory_embedding` is not ready yet. Wait until it finishes populating and retry the transaction.',
      'Neo.ClientError.Schema.IndexNotFound',
      '51N63',
      '',
    );
    const mapped = notReady(populating);
    expect(mapped).toBeInstanceOf(IndexNotReadyError);
    expect(mapped).toMatchObject({ code: 'INDEX_NOT_READY', index: 'memory_embedding' });
    const missing = new Neo4jError(
      "22N69: The index 'nope' does not exist.",
      'Neo.ClientError.Schema.IndexNotFound',
      '22N69',
      '',
    );
    expect(notReady(missing)).toBeNull();
    expect(notReady(new Error('51N63: Index `x` is not ready yet'))).toBeNull();
  });

  it('says in health.degraded what a search gets while the vector index is built', () => {
    const lines = degradedParts({ neo4j: true, redis: true, embeddings: 'ready', building: ['memory_embedding'] });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^neo4j: the memory_embedding index is being built .* searched by words/);
  });
});
