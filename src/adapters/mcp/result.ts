/**
 * Tool results: a typed success (structuredContent plus the same as text) or
 * a typed failure (`isError`, with the code GraphQL gives as `extensions.code`).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { publicError, type PublicError } from '../graphql/index.js';
import { ERROR_META_KEY } from './protocol.js';

export function okResult(structured: Record<string, unknown>, text?: string): CallToolResult {
  return { content: [{ type: 'text', text: text ?? JSON.stringify(structured) }], structuredContent: structured };
}

export function errorResult(error: PublicError): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `${error.code}: ${error.message}` }],
    _meta: { [ERROR_META_KEY]: error },
  };
}

/** Runs a tool body; a thrown domain error becomes an error result, never a protocol failure. */
export async function toolResult(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    return errorResult(publicError(error, 'mcp'));
  }
}

/**
 * The SDK's own failures (arguments that do not match the input schema, an
 * unknown tool) come back as error results without a code; this gives them
 * the codes GraphQL uses for the same mistakes.
 */
export function sdkErrorResult(message: string): CallToolResult {
  const code = /Input validation error/.test(message) ? 'BAD_USER_INPUT' : 'BAD_REQUEST';
  return errorResult({ code, message: message.replace(/^MCP error -?\d+: /, '') });
}
