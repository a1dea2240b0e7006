export { createMcpHandler } from './http-handler.js';
export type { McpHandlerOptions } from './http-handler.js';
export { buildMcpServer, SERVER_INSTRUCTIONS } from './server.js';
export { mcpContext, STORE_HEADER } from './context.js';
export type { McpContext } from './context.js';
export { ERROR_META_KEY } from './result.js';
