/**
 * The CLI's and the stdio bridge's way to the running service: its MCP
 * endpoint, with the directory's store, the caller's name and the token as
 * headers. A service that cannot be reached is its own error (exit code 3).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ERROR_META_KEY, STORE_HEADER } from '../adapters/mcp/protocol.js';

/** Network errors that mean "no service there" rather than a failed call. */
const UNREACHABLE_CODES = new Set(
  (
    'ECONNREFUSED ECONNRESET ENOTFOUND EAI_AGAIN EHOSTUNREACH ENETUNREACH ETIMEDOUT ' +
    'UND_ERR_CONNECT_TIMEOUT UND_ERR_SOCKET'
  ).split(' '),
);

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
  return new URL('mcp', base.endsWith('/') ? base : `${base}/`);
}

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

export async function connectService(o: ServiceOptions, name = 'total-recall-cli', version = '0.1.0'): Promise<Client> {
  const url = mcpUrl(o.url);
  const client = new Client({ name, version });
  try {
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: serviceHeaders(o) } }));
  } catch (error) {
    if (isNetworkError(error)) throw new ServiceUnreachable(o.url, 'connection failed');
    const status = /HTTP (\d{3})/.exec((error as Error).message)?.[1];
    if (status === '404') throw new ServiceUnreachable(o.url, 'it answers, but serves no MCP endpoint at /mcp');
    throw error;
  }
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
