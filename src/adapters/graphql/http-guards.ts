/**
 * The checks every HTTP request passes before it runs, and the typed answer to
 * one refused there: Host and Origin, the body size, and the status and code of
 * each refusal (413, 429, 400, 401, 503 with its retry hint).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { InvalidInputError, TotalRecallError } from '../../domain/index.js';
import { RateLimitedError } from '../auth/rate-limit.js';
import { isLoopback } from '../../settings/request-limits.js';
import { publicError } from './errors.js';
import { asUnavailable } from '../outage.js';

export class BodyTooLarge extends Error {}

/** The body, up to `max` bytes; past that the rest is read and dropped so the client can read its 413. */
export function readBody(req: IncomingMessage, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? NaN);
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number.isFinite(declared) && declared > max;
    if (over) reject(new BodyTooLarge());
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > max) {
        over = true;
        chunks.length = 0;
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
  extensions: Record<string, unknown> = {},
): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ errors: [{ message, extensions: { code, ...extensions } }] }));
}

/**
 * DNS rebinding: a page on evil.example resolving to 127.0.0.1 still sends
 * `Host: evil.example`. On loopback only loopback names (and HOST and
 * TOTAL_RECALL_ALLOWED_HOSTS) are served.
 */
export function hostAllowed(hostHeader: string | undefined, bindHost: string, allowed: readonly string[]): boolean {
  if (!isLoopback(bindHost) && allowed.length === 0) return true;
  if (!hostHeader) return false;
  const name = hostHeader.replace(/:\d+$/, '').toLowerCase();
  return isLoopback(name) || name === bindHost.toLowerCase() || allowed.map((h) => h.toLowerCase()).includes(name);
}

/**
 * Web pages: a browser names the page's origin. Only pages served by this
 * service's own host may call it (no CORS headers are sent, so other origins
 * cannot read answers either); clients that are not browsers send no Origin.
 */
export function originAllowed(origin: string | undefined, hostHeader: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === hostHeader;
  } catch {
    return false;
  }
}

interface Refusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly headers?: Record<string, string>;
  readonly extensions?: Record<string, unknown>;
}

/** The status, code and headers of a request refused before it ran. */
export function refusalOf(error: unknown, maxBodyBytes: number): Refusal {
  if (error instanceof BodyTooLarge) {
    const message = `the request body is larger than ${maxBodyBytes} bytes`;
    return { status: 413, code: 'PAYLOAD_TOO_LARGE', message, headers: { connection: 'close' } };
  }
  if (error instanceof RateLimitedError) {
    const headers = { 'retry-after': String(Math.ceil(error.retryAfterMs / 1000)) };
    return { status: 429, code: error.code, message: error.message, headers };
  }
  if (error instanceof InvalidInputError) return { status: 400, code: error.code, message: error.message };
  if (error instanceof TotalRecallError && error.code === 'UNAUTHENTICATED') {
    return { status: 401, code: error.code, message: error.message, headers: { 'www-authenticate': 'Bearer' } };
  }
  // Anything else known (a Neo4j or Redis outage while checking the token, a full pool): 503, with its retry hint.
  const known = error instanceof TotalRecallError ? error : asUnavailable(error);
  if (known) {
    const shown = publicError(known);
    const retry = shown.retryAfterMs === undefined ? null : shown.retryAfterMs;
    return {
      status: 503,
      code: shown.code,
      message: shown.message,
      headers: retry === null ? {} : { 'retry-after': String(Math.max(1, Math.ceil(retry / 1000))) },
      extensions: {
        ...(retry === null ? {} : { retryable: true, retryAfterMs: retry }),
        ...(shown.details ? { details: shown.details } : {}),
      },
    };
  }
  const message = error instanceof SyntaxError ? 'request body is not valid JSON' : 'bad request';
  return { status: 400, code: 'BAD_REQUEST', message };
}

/** Answers a request refused before it ran. */
export function refuse(res: ServerResponse, error: unknown, maxBodyBytes: number): void {
  const r = refusalOf(error, maxBodyBytes);
  sendError(res, r.status, r.code, r.message, r.headers, r.extensions);
}
