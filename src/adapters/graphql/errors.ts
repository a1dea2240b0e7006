/** The one place where domain errors become GraphQL errors with `extensions.code`. */
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { TotalRecallError } from '../../domain/index.js';

export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  if (original instanceof TotalRecallError) {
    return {
      ...formatted,
      message: original.message,
      extensions: { ...formatted.extensions, code: original.code, ...(original.details ? { details: original.details } : {}) },
    };
  }
  if (original instanceof GraphQLError || formatted.extensions?.code !== 'INTERNAL_SERVER_ERROR') return formatted;
  // Anything unexpected: keep the code, hide internals (they go to the server log).
  console.error('[graphql] unexpected error', original);
  return { message: 'internal error', locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}
