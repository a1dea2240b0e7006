/**
 * The one place where errors become what a client sees: a code and a message
 * (GraphQL's `extensions.code`; the MCP endpoint's error results carry the same).
 */
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { RetryableError, TotalRecallError } from '../../domain/index.js';
import { asUnavailable } from '../outage.js';
import { processLogger } from '../logger.js';

export interface PublicError {
  readonly code: string;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
  /** With a retryable code (UNAVAILABLE, BUSY): when to try again. */
  readonly retryAfterMs?: number;
}

/**
 * A domain error keeps its code and message; anything else is an internal error whose detail goes to the server log
 * only.
 */
export function publicError(error: unknown, where = 'service'): PublicError {
  // A backing service's outage, wherever it surfaced, is a typed, retryable UNAVAILABLE.
  const known = error instanceof TotalRecallError ? error : asUnavailable(error);
  if (known) {
    return {
      code: known.code,
      message: known.message,
      ...(known.details ? { details: known.details } : {}),
      ...(known instanceof RetryableError ? { retryAfterMs: known.retryAfterMs } : {}),
    };
  }
  processLogger().error(`[${where}] unexpected error`, error);
  return { code: 'INTERNAL_SERVER_ERROR', message: 'internal error' };
}

/** graphql-js quotes a refused variable's whole value in the message: a huge input must not come back huge. */
const MAX_MESSAGE_CHARS = 1000;

export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const shown = bounded(formatted);
  return classify(shown, error);
}

function bounded(formatted: GraphQLFormattedError): GraphQLFormattedError {
  if (formatted.message.length <= MAX_MESSAGE_CHARS) return formatted;
  return {
    ...formatted,
    message:
      `${formatted.message.slice(0, MAX_MESSAGE_CHARS / 2)} … ` +
      `${formatted.message.slice(-MAX_MESSAGE_CHARS / 2 + 5)}`,
  };
}

/** Codes our scalars give; graphql-js and Apollo wrap them (validation, variables) and would hide them. */
const SCALAR_CODES = new Set(['JSON_TOO_DEEP', 'JSON_TOO_LARGE', 'INVALID_DATETIME']);

function scalarCode(error: unknown): string | null {
  for (
    let e = error as { originalError?: unknown; extensions?: { code?: unknown } } | undefined, hops = 0;
    e && hops < 5;
    e = e.originalError as typeof e, hops++
  ) {
    const code = e.extensions?.code;
    if (typeof code === 'string' && SCALAR_CODES.has(code)) return code;
  }
  return null;
}

function classify(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const fromScalar = scalarCode(error);
  if (fromScalar) return { ...formatted, extensions: { ...formatted.extensions, code: fromScalar } };
  const unwrapped = unwrapResolverError(error);
  // A full pool or an unreachable server is an outage (outage.ts): a retryable UNAVAILABLE, nothing written.
  const original = unwrapped instanceof TotalRecallError ? unwrapped : (asUnavailable(unwrapped) ?? unwrapped);
  if (original instanceof TotalRecallError) {
    const { code, message, details, retryAfterMs } = publicError(original);
    return {
      ...formatted,
      message,
      extensions: {
        ...formatted.extensions,
        code,
        ...(retryAfterMs !== undefined ? { retryable: true, retryAfterMs } : {}),
        ...(details ? { details } : {}),
      },
    };
  }
  if (original instanceof GraphQLError && formatted.extensions?.code === 'INTERNAL_SERVER_ERROR' && !formatted.path) {
    // graphql-js refusing the request itself (e.g. "Too many errors processing variables"): the input's fault.
    return { ...formatted, extensions: { ...formatted.extensions, code: 'BAD_USER_INPUT' } };
  }
  if (original instanceof GraphQLError || formatted.extensions?.code !== 'INTERNAL_SERVER_ERROR') return formatted;
  // Anything unexpected: keep the code, hide internals (they go to the server log).
  const { code, message } = publicError(original, 'graphql');
  return { message, locations: formatted.locations, path: formatted.path, extensions: { code } };
}

/** The longest retry hint among formatted errors (for an HTTP Retry-After header), or null. */
export function retryAfterMsOf(errors: readonly GraphQLFormattedError[] | undefined): number | null {
  const hints = (errors ?? []).flatMap((e) =>
    typeof e.extensions?.retryAfterMs === 'number' ? [e.extensions.retryAfterMs] : [],
  );
  return hints.length > 0 ? Math.max(...hints) : null;
}
