/** What every tool, resource and prompt of one MCP request gets. */
import type { Caller } from '../../contexts/cortex/index.js';
import type { Ports } from '../graphql/index.js';

export interface McpContext {
  readonly ports: Ports;
  readonly caller: Caller;
  /** A tool's `store` argument, else the connection's store, else the token's (its first), else the service default. */
  storeOf(store: string | null | undefined): string;
}

export function mcpContext(
  ports: Ports,
  caller: Caller,
  connectionStore: string | null,
  serviceDefault: string,
): McpContext {
  const own = caller.access?.stores?.[0] ?? null;
  return { ports, caller, storeOf: (store) => store ?? connectionStore ?? own ?? serviceDefault };
}
