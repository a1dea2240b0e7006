/**
 * The CLI's and the stdio bridge's way to the running service: its MCP
 * endpoint, with the directory's store, the caller's name and the token as
 * headers. A service that cannot be reached is its own error (exit code 3);
 * one that refuses a request at the HTTP level gives its code as a tool would.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ERROR_META_KEY, STORE_HEADER } from '../adapters/mcp/protocol.js';

/** Network errors that mean "no service there" rather than a failed call. */
const UNREACHABLE_CODES = new Set(
  (
    'ECONNREFUSED ECONNRESET ENOTFOUND EAI_AGAIN EHOSTUNREACH ENETUNREACH ETIMEDOUT ' +
    'UND_ERR_CONNECT_TIMEOUT UND_ERR_SOCKET'
  ).split(' '),
);

/** Codes that mean "not now": the same call may succeed in a moment (exit code 3, as for no service). */
const RETRY_CODES = new Set([
  'SHUTTING_DOWN',
  'UNAVAILABLE',
  'BUSY',
  'RATE_LIMITED',
  'INDEX_NOT_READY',
  'CONCURRENT_CHANGE',
]);

export const DEFAULT_URL = 'http://127.0.0.1:4000';

export interface ServiceOptions {
  /** The service's base URL (TOTAL_RECALL_URL). */
  readonly url: string;
  readonly token: string | null;
  /** The directory's store; null: the service's default. */
  readonly store: string | null;
  /** TOTAL_RECALL_INSTANCE_ID: the caller names itself with it. */
  readonly instanceId: string | null;
}

export function mcpUrl(base: string): URL {
  // The server prints its GraphQL URL (…/graphql) and clients are configured with …/mcp: both name the service.
  const root = base.replace(/\/(?:mcp|graphql)\/?$/, '');
  return new URL('mcp', root.endsWith('/') ? root : `${root}/`);
}

/** Whether an HTTP header can carry the value: fetch refuses characters beyond Latin-1, and control characters. */
export const headerSafe = (value: string): boolean => /^[\t\x20-\x7e\xa0-\xff]*$/.test(value);

export function serviceHeaders(o: ServiceOptions): Record<string, string> {
  return {
    ...(o.store ? { [STORE_HEADER]: o.store } : {}),
    ...(o.instanceId ? { 'x-instance-id': o.instanceId } : {}),
    ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
  };
}

export class ServiceUnreachable extends Error {
  constructor(
    readonly url: string,
    detail: string,
  ) {
    super(
      `Total Recall is not reachable at ${url} (${detail}). Start it with \`npm start\` in its checkout, or set ` +
        `TOTAL_RECALL_URL.`,
    );
  }
}

/** A tool's typed failure: the code is GraphQL's `extensions.code`. */
export class ToolFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryable = RETRY_CODES.has(code),
  ) {
    super(`${code}: ${message}`);
  }
}

/** Whether an error is the network failing (nothing listening, DNS, reset), not the service answering. */
export function isNetworkError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
    if (e instanceof TypeError && /fetch failed/.test(e.message)) return true;
  }
  return false;
}

/** A refusal's code and message: from GraphQL's `{ errors: [{ message, extensions: { code } }] }`, or JSON-RPC's. */
function refusal(body: string): { code: string | null; message: string } | null {
  try {
    const json = JSON.parse(body) as {
      errors?: { message?: string; extensions?: { code?: string } }[];
      error?: { message?: string };
    };
    const first = json.errors?.[0];
    if (first?.message) return { code: first.extensions?.code ?? null, message: first.message };
    // The MCP endpoint's own refusals say "CODE: message" in a JSON-RPC error.
    const text = json.error?.message;
    const coded = text ? /^([A-Z][A-Z0-9_.]*): (.*)$/s.exec(text) : null;
    return coded ? { code: coded[1]!, message: coded[2]! } : text ? { code: null, message: text } : null;
  } catch {
    return null;
  }
}

/**
 * What a failed request to the service means: unreachable (nothing there, or no MCP endpoint), refused at the HTTP
 * level (the SDK puts the status on `.code` and the body in the message), or null: something else.
 */
export function serviceFailure(error: unknown, url: string): ServiceUnreachable | ToolFailure | null {
  if (isNetworkError(error)) return new ServiceUnreachable(url, 'connection failed');
  if (!(error instanceof StreamableHTTPError) || !(Number(error.code) >= 400)) return null;
  const status = Number(error.code);
  if (status === 404) return new ServiceUnreachable(url, 'it answers, but serves no MCP endpoint at /mcp');
  const body = error.message.replace(/^Streamable HTTP error: (?:Error POSTing to endpoint: )?/, '');
  const found = refusal(body) ?? { code: null, message: body };
  const code = found.code ?? `HTTP_${status}`;
  return new ToolFailure(code, found.message, RETRY_CODES.has(code) || status === 429 || status === 503);
}

export async function connectService(o: ServiceOptions, name = 'total-recall-cli', version = '0.1.0'): Promise<Client> {
  const client = new Client({ name, version });
  await client.connect(
    new StreamableHTTPClientTransport(mcpUrl(o.url), { requestInit: { headers: serviceHeaders(o) } }),
  );
  return client;
}

export interface ToolAnswer<T> {
  readonly data: T;
  readonly text: string;
}

export async function callTool<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolAnswer<T>> {
  const result = await client.callTool({ name, arguments: args });
  const text = ((result.content as { type: string; text?: string }[] | undefined) ?? [])
    .map((c) => c.text ?? '')
    .join('\n');
  if (result.isError) {
    const error = (result._meta?.[ERROR_META_KEY] ?? {}) as { code?: string; message?: string };
    throw new ToolFailure(error.code ?? 'UNKNOWN', error.message ?? text);
  }
  return { data: result.structuredContent as T, text };
}
