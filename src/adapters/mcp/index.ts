export { createMcpHandler } from './http-handler.js';
export type { McpHandlerOptions } from './http-handler.js';
