/**
 * The MCP endpoint at /mcp on the service's HTTP server: Streamable HTTP,
 * stateless (each POST gets its own server and transport, so any API process
 * can answer any request), JSON responses. The caller comes from the same
 * function GraphQL uses; the `x-total-recall-store` header names the store
 * calls without a store argument use.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GraphQLError } from 'graphql';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { callerFromRequest, headerValue, type RouteHandler } from '../graphql/index.js';
import { mcpContext } from './context.js';
import { STORE_HEADER } from './protocol.js';
import { buildMcpServer } from './server.js';
import { withoutNullArguments } from './null-arguments.js';

export interface McpHandlerOptions {
  readonly defaultStore: string;
  readonly version: string;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

function jsonRpcError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/**
 * A browser page from another origin must not reach a loopback service (DNS rebinding): the MCP spec asks servers to
 * check Origin.
 */
function foreignOrigin(req: IncomingMessage): boolean {
  const origin = headerValue(req.headers, 'origin');
  if (origin === null) return false;
  try {
    return !LOOPBACK.has(new URL(origin).hostname);
  } catch {
    return true;
  }
}

/** The ports come from the server with each request (RouteScope): limited and admitted as GraphQL's are. */
export function createMcpHandler(options: McpHandlerOptions): RouteHandler {
  return async (req, res, { ports, eachMessage }) => {
    if (req.method !== 'POST') {
      jsonRpcError(res, 405, 'This MCP endpoint is stateless: send each JSON-RPC message as a POST.', {
        allow: 'POST',
      });
      return;
    }
    if (foreignOrigin(req)) {
      jsonRpcError(res, 403, 'Origin not allowed');
      return;
    }
    let caller: ReturnType<typeof callerFromRequest>;
    try {
      caller = await callerFromRequest(req);
    } catch (error) {
      // A name holding a control character (x-instance-id, x-session-id): refused, as over GraphQL.
      if (error instanceof GraphQLError) {
        jsonRpcError(res, 400, `${String(error.extensions.code)}: ${error.message}`);
        return;
      }
      throw error;
    }
    const server = buildMcpServer(
      mcpContext(ports, caller, headerValue(req.headers, STORE_HEADER), options.defaultStore),
      options.version,
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // A POST may carry a batch of JSON-RPC messages: each is counted against the rate limit as a request of its own.
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => eachMessage(() => deliver?.(withoutNullArguments(message), extra));
    await transport.handleRequest(req, res);
  };
}
