/**
 * The one error base class. `code` is `CONTEXT.REASON` and is mapped once,
 * by the GraphQL adapter, to `extensions.code`.
 */
export class TotalRecallError extends Error {
  readonly code: string;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'TotalRecallError';
    this.code = code;
    this.details = details;
  }
}

/** Bad input from the caller: nothing was written. */
export class InvalidInputError extends TotalRecallError {
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
    this.name = 'InvalidInputError';
  }
}

/** Longest id echoed back: no stored id is longer (MAX_ID_CHARS), so a longer one is cut, not repeated whole. */
const ECHOED_ID_CHARS = 200;
const MAX_NOT_FOUND_MESSAGE = 1000;
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);
const clipIds = (value: unknown): unknown =>
  typeof value === 'string'
    ? clip(value, ECHOED_ID_CHARS)
    : Array.isArray(value)
      ? value.map((v) => (typeof v === 'string' ? clip(v, ECHOED_ID_CHARS) : v))
      : value;

/** An id that does not name anything in the caller's store. Echoes the ids it was given, cut. */
export class NotFoundError extends TotalRecallError {
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    const clipped = details && Object.fromEntries(Object.entries(details).map(([k, v]) => [k, clipIds(v)]));
    super(code, clip(message, MAX_NOT_FOUND_MESSAGE), clipped);
    this.name = 'NotFoundError';
  }
}

/**
 * A setting names something that cannot work (a malformed NEO4J_URI, a
 * database the server does not have): the process stops at start with this,
 * rather than waiting for a server that will never answer as configured.
 */
export class ConfigError extends TotalRecallError {
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
    this.name = 'ConfigError';
  }
}

/** The service is draining for shutdown and takes no new work. */
export class ShuttingDownError extends TotalRecallError {
  constructor() {
    super('SHUTTING_DOWN', 'Total Recall is shutting down and accepts no new work; retry against a running instance.');
    this.name = 'ShuttingDownError';
  }
}

/**
 * The call may succeed if repeated later: the caller should wait about
 * `retryAfterMs` and send it again (with the same client id for a store,
 * which makes a repeat a no-op). Carried as `extensions.retryAfterMs`.
 */
export class RetryableError extends TotalRecallError {
  readonly retryAfterMs: number;

  constructor(code: string, message: string, retryAfterMs: number, details?: Record<string, unknown>) {
    super(code, message, details);
    this.name = 'RetryableError';
    this.retryAfterMs = Math.max(0, Math.round(retryAfterMs));
  }
}

/**
 * A backing service (Neo4j, Redis) cannot be reached right now. A write that
 * failed this way may or may not have committed: retry it with the same id.
 */
export class UnavailableError extends RetryableError {
  readonly service: string;

  constructor(service: string, reason: string, retryAfterMs = 1000) {
    super(
      'UNAVAILABLE',
      `${service} is unavailable (${reason}); retry in about ${Math.max(1, Math.round(retryAfterMs / 1000))} s`,
      retryAfterMs,
      { service },
    );
    this.name = 'UnavailableError';
    this.service = service;
  }
}

/** This process has as much work as it admits: retry after `retryAfterMs` (nothing was done). */
export class BusyError extends RetryableError {
  constructor(retryAfterMs: number, details?: Record<string, unknown>) {
    super(
      'BUSY',
      `Total Recall is at capacity; retry in about ${Math.max(1, Math.round(retryAfterMs / 1000))} s`,
      retryAfterMs,
      details,
    );
    this.name = 'BusyError';
  }
}

/**
 * Another call changed the same memory or session between this call's read and its write (a tier change, a mode
 * change): nothing was written, and the call sent again applies to what is there now.
 */
export class ConcurrentChangeError extends RetryableError {
  constructor(what: string, details?: Record<string, unknown>) {
    super('CONCURRENT_CHANGE', `${what} changed while this call ran; nothing was written, retry`, 100, details);
    this.name = 'ConcurrentChangeError';
  }
}

/**
 * An index Neo4j is still building (after an upgrade changed its definition): a search that needs it gets its
 * candidates another way meanwhile; anything else may retry once the build is done.
 */
export class IndexNotReadyError extends RetryableError {
  readonly index: string;

  constructor(index: string, retryAfterMs = 5000) {
    super('INDEX_NOT_READY', `the ${index} index is still being built; retry shortly`, retryAfterMs, { index });
    this.name = 'IndexNotReadyError';
    this.index = index;
  }
}

export function assertNever(value: never, what = 'message'): never {
  throw new Error(`unhandled ${what}: ${JSON.stringify(value)}`);
}

/** The caller may not do this: its token's scope or stores do not cover it. Nothing was written. */
export class ForbiddenError extends TotalRecallError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('FORBIDDEN', message, details);
    this.name = 'ForbiddenError';
  }
}

/** No valid token where one is required. */
export class UnauthenticatedError extends TotalRecallError {
  constructor(message: string) {
    super('UNAUTHENTICATED', message);
    this.name = 'UnauthenticatedError';
  }
}
