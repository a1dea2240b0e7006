/**
 * `total-recall mcp`: an MCP server on stdio that relays every message to the
 * running service's MCP endpoint (one implementation of the tools, in the
 * service). It adds the directory's store, the caller's name and the token as
 * headers. While the service is down, each request gets a JSON-RPC error that
 * says so, and the bridge keeps running.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { mcpUrl, serviceFailure, serviceHeaders, type ServiceOptions } from './service.js';

const hasId = (m: JSONRPCMessage): m is JSONRPCMessage & { id: string | number; method: string } =>
  'id' in m && 'method' in m;

export async function runStdioBridge(o: ServiceOptions, log: (line: string) => void): Promise<void> {
  const upstream = new StreamableHTTPClientTransport(mcpUrl(o.url), { requestInit: { headers: serviceHeaders(o) } });
  const local = new StdioServerTransport();

  upstream.onmessage = (message) => {
    // The initialize answer fixes the protocol version later requests declare.
    const result = (message as { result?: { protocolVersion?: unknown; serverInfo?: unknown } }).result;
    if (result && typeof result.protocolVersion === 'string' && result.serverInfo)
      upstream.setProtocolVersion(result.protocolVersion);
    void local.send(message);
  };
  upstream.onerror = (error) => log(`total-recall mcp: ${error.message}`);
  local.onmessage = (message) => {
    upstream.send(message).catch((error: unknown) => {
      if (!hasId(message)) return;
      const text = serviceFailure(error, o.url)?.message ?? `relay failed: ${(error as Error).message}`;
      void local.send({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: text } });
    });
  };
  const finished = new Promise<void>((resolve) => {
    local.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await upstream.start();
  await local.start();
  await finished;
  await upstream.close().catch(() => undefined);
}
