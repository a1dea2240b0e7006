/**
 * Who is asking, from an HTTP request: the one place every HTTP entry point
 * (GraphQL, the MCP endpoint) builds its Caller, so a check added here
 * (authentication) covers them all.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Caller } from '../../contexts/cortex/index.js';

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
  return admitted.get(req) ?? { instanceId: headerValue(req.headers, 'x-instance-id'), sessionId: headerValue(req.headers, 'x-session-id') };
}
