/**
 * Who is asking, from an HTTP request: the one place every HTTP entry point
 * (GraphQL, the MCP endpoint) builds its Caller, so a check added here
 * (authentication) covers them all.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { InvalidInputError, isName, NAME_CHARACTERS } from '../../domain/index.js';
import type { Caller } from '../../contexts/cortex/index.js';

const MAX_CALLER_NAME_CHARS = 200;

/**
 * A name the caller gives itself (x-instance-id, x-session-id, or the same in
 * graphql-ws connectionParams): trimmed, empty means none. One holding a
 * control character is refused like every other name, before anything runs.
 */
export function callerName(value: unknown, what: 'instance' | 'session'): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const name = value.trim();
  if (!isName(name, MAX_CALLER_NAME_CHARS)) {
    throw new InvalidInputError(
      `CORTEX.INVALID_${what.toUpperCase()}_ID`,
      `the ${what} id a caller names itself with must be at most ${MAX_CALLER_NAME_CHARS} characters, ` +
        NAME_CHARACTERS,
    );
  }
  return name;
}

/** A header's trimmed value, or null when absent or blank. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | null {
  const value = headers[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** Callers the HTTP server admitted (Authenticator.callerFrom: token, scope, stores, instance), by request. */
export const admitted = new WeakMap<object, Caller>();

/**
 * The caller the server admitted for this request (its token's access); without
 * one (a handler run outside the server), callers name themselves with
 * `x-instance-id` and `x-session-id`.
 */
export function callerFromRequest(req: { readonly headers: IncomingHttpHeaders }): Caller {
  return (
    admitted.get(req) ?? {
      instanceId: callerName(req.headers['x-instance-id'], 'instance'),
      sessionId: callerName(req.headers['x-session-id'], 'session'),
    }
  );
}
