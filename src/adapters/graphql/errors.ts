/** The one place where domain errors become GraphQL errors with `extensions.code`. */
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { RetryableError, TotalRecallError } from '../../domain/index.js';
import { asUnavailable } from '../outage.js';

export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const unwrapped = unwrapResolverError(error);
  // A backing service's outage, wherever it surfaced, is a typed, retryable UNAVAILABLE.
  const original = unwrapped instanceof TotalRecallError ? unwrapped : (asUnavailable(unwrapped) ?? unwrapped);
  if (original instanceof TotalRecallError) {
    return {
      ...formatted,
      message: original.message,
      extensions: {
        ...formatted.extensions,
        code: original.code,
        ...(original instanceof RetryableError ? { retryAfterMs: original.retryAfterMs } : {}),
        ...(original.details ? { details: original.details } : {}),
      },
    };
  }
  if (original instanceof GraphQLError || formatted.extensions?.code !== 'INTERNAL_SERVER_ERROR') return formatted;
  // Anything unexpected: keep the code, hide internals (they go to the server log).
  console.error('[graphql] unexpected error', original);
  return { message: 'internal error', locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

/** The longest retry hint among formatted errors (for an HTTP Retry-After header), or null. */
export function retryAfterMsOf(errors: readonly GraphQLFormattedError[] | undefined): number | null {
  const hints = (errors ?? []).flatMap((e) => (typeof e.extensions?.retryAfterMs === 'number' ? [e.extensions.retryAfterMs] : []));
  return hints.length > 0 ? Math.max(...hints) : null;
}
