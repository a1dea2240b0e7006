/**
 * The MCP tools: each a thin call into the ports the GraphQL resolvers use
 * (src/adapters/graphql/*-resolver.ts), with its title, a description for a
 * model, input and output schemas, and truthful annotations.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpContext } from './context.js';
import { okResult, toolResult } from './result.js';
import * as out from './schemas.js';
import { READ, toolInput, toolKit } from './tool-args.js';
import { registerMemoryTools } from './memory-tools.js';
import { registerRecallTools } from './recall-tools.js';
import { registerAssociationTools } from './association-tools.js';
import { registerSessionTools } from './session-tools.js';

export function registerTools(server: McpServer, ctx: McpContext): void {
  registerMemoryTools(server, ctx);
  registerRecallTools(server, ctx);
  registerAssociationTools(server, ctx);
  registerSessionTools(server, ctx);
  const { ports, caller } = toolKit(ctx);

  server.registerTool(
    'status',
    {
      title: 'Service status',
      description: 'Whether the memory service is healthy, and which store your calls use when they name none.',
      inputSchema: toolInput({}),
      outputSchema: out.statusResult,
      annotations: READ,
    },
    () =>
      toolResult(async () => {
        const h = await ports.health(caller.access);
        return okResult({ store: ctx.storeOf(undefined), ...h });
      }),
  );
}
