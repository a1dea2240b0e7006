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

/** An id that does not name anything in the caller's store. */
export class NotFoundError extends TotalRecallError {
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
    this.name = 'NotFoundError';
  }
}

/** The service is draining for shutdown and takes no new work. */
export class ShuttingDownError extends TotalRecallError {
  constructor() {
    super('SHUTTING_DOWN', 'Total Recall is shutting down and accepts no new work; retry against a running instance.');
    this.name = 'ShuttingDownError';
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

/** Too busy right now (rate limit, database pool): nothing was written, retry later. */
export class UnavailableError extends TotalRecallError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('UNAVAILABLE', message, { retryable: true, ...details });
    this.name = 'UnavailableError';
  }
}
