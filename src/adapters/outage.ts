/**
 * The one place that tells an outage of a backing service from any other
 * failure: Neo4j's ServiceUnavailable, SessionExpired, a database that is
 * starting or stopping, a connection pool that gave no connection in time, and
 * Redis connections that are refused, reset or closed. Such a failure reaches
 * callers as a typed, retryable UNAVAILABLE (domain/errors.ts), never as an
 * internal error.
 */
import { Neo4jError } from 'neo4j-driver';
import { UnavailableError } from '../domain/index.js';

export type BackingService = 'neo4j' | 'redis';

/** How long a caller is told to wait before it tries again during an outage. */
export const OUTAGE_RETRY_AFTER_MS = 1000;

const NEO4J_CODES = new Set([
  'ServiceUnavailable',
  'SessionExpired',
  'Neo.TransientError.General.DatabaseUnavailable',
  'Neo.ClientError.Database.DatabaseNotFound',
]);
const NEO4J_MESSAGES =
  /Connection acquisition timed out|Pool is closed|connect ECONNREFUSED|Failed to connect to server/i;
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTCONN',
]);
const REDIS_MESSAGES = new RegExp(
  [
    'Connection is closed',
    "Stream isn't writeable",
    'Reached the max retries per request limit',
    'connect ECONNREFUSED',
    'read ECONNRESET',
  ].join('|'),
  'i',
);

/** Which service's outage this error is (or null: it is some other failure). */
export function outageOf(error: unknown): BackingService | null {
  for (
    let e: unknown = error, depth = 0;
    e instanceof Error && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    if (e instanceof UnavailableError) return e.service === 'redis' ? 'redis' : 'neo4j';
    if (e instanceof Neo4jError) return NEO4J_CODES.has(e.code) || NEO4J_MESSAGES.test(e.message) ? 'neo4j' : null;
    const code = (e as { code?: unknown }).code;
    if (e.name === 'MaxRetriesPerRequestError' || REDIS_MESSAGES.test(e.message)) return 'redis';
    // Neo4j's driver wraps its socket errors (ServiceUnavailable): a bare one is ioredis's.
    if (typeof code === 'string' && SOCKET_CODES.has(code)) return 'redis';
  }
  return null;
}

/** The error as callers see it during an outage, or null when it is not one. */
export function asUnavailable(error: unknown, service?: BackingService): UnavailableError | null {
  if (error instanceof UnavailableError) return error;
  const which = outageOf(error) ?? null;
  if (!which) return null;
  const reason =
    error instanceof Neo4jError
      ? error.code
      : ((error as Error).message ?? String(error)).split('\n')[0]?.slice(0, 200);
  const wrapped = new UnavailableError(service ?? which, reason ?? 'unreachable', OUTAGE_RETRY_AFTER_MS);
  (wrapped as { cause?: unknown }).cause = error;
  return wrapped;
}
