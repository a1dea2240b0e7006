export { createMcpHandler } from './http-handler.js';
export type { McpHandlerOptions } from './http-handler.js';
export { buildMcpServer, SERVER_INSTRUCTIONS } from './server.js';
export { mcpContext } from './context.js';
export { STORE_HEADER, ERROR_META_KEY } from './protocol.js';
export type { McpContext } from './context.js';
