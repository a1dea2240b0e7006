/** One MCP server over the service's ports, for one caller. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpContext } from './context.js';
import { registerTools } from './tools.js';
import { registerReflectionTools } from './reflection-tools.js';
import { registerResources } from './resources.js';
import { registerPrompts } from './prompts.js';
import { sdkErrorResult } from './result.js';

export const SERVER_INSTRUCTIONS =
  'Total Recall is your long-term memory. Call `resume` when you start, `context` (or `recall`) before you answer ' +
  'from memory, `remember` what you want to keep, `claim` what matters, and `mark_used` / `report_outcome` when a ' +
  'recalled memory helped or not. Every hit has a confidence: say so when it is low.';

export function buildMcpServer(ctx: McpContext, version: string): McpServer {
  const server = new McpServer(
    { name: 'total-recall', title: 'Total Recall', version },
    { instructions: SERVER_INSTRUCTIONS },
  );
  // The tools' names, as they are registered: a call of an unknown tool is answered with them.
  const names: string[] = [];
  const register = server.registerTool.bind(server) as (...args: unknown[]) => unknown;
  server.registerTool = ((...args: unknown[]) => {
    names.push(String(args[0]));
    return register(...args);
  }) as typeof server.registerTool;
  // The SDK turns a schema mismatch into an error result without a code; give
  // it the code GraphQL uses (the SDK calls this method for its own failures;
  // the version is pinned and test/integration/mcp-http.test.ts checks the code).
  (server as unknown as { createToolError(message: string): CallToolResult }).createToolError = (message) =>
    sdkErrorResult(message, names);
  registerTools(server, ctx);
  registerReflectionTools(server, ctx);
  registerResources(server, ctx);
  registerPrompts(server, ctx);
  return server;
}
