/**
 * The one place where errors become what a client sees: a code and a message
 * (GraphQL's `extensions.code`; the MCP endpoint's error results carry the same).
 */
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { TotalRecallError } from '../../domain/index.js';

export interface PublicError {
  readonly code: string;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** A domain error keeps its code and message; anything else is an internal error whose detail goes to the server log only. */
export function publicError(error: unknown, where = 'service'): PublicError {
  if (error instanceof TotalRecallError) {
    return { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
  }
  console.error(`[${where}] unexpected error`, error);
  return { code: 'INTERNAL_SERVER_ERROR', message: 'internal error' };
}

export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  if (original instanceof TotalRecallError) {
    const { code, message, details } = publicError(original);
    return { ...formatted, message, extensions: { ...formatted.extensions, code, ...(details ? { details } : {}) } };
  }
  if (original instanceof GraphQLError || formatted.extensions?.code !== 'INTERNAL_SERVER_ERROR') return formatted;
  // Anything unexpected: keep the code, hide internals (they go to the server log).
  const { code, message } = publicError(original, 'graphql');
  return { message, locations: formatted.locations, path: formatted.path, extensions: { code } };
}
