/**
 * Tool results: a typed success (structuredContent plus the same as text) or
 * a typed failure (`isError`, with the code GraphQL gives as `extensions.code`).
 */
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
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

/**
 * GraphQL operations a domain message names, and the tool an agent calls for each: an agent told to "call
 * startSession" looks for a tool of that name and finds none.
 */
const TOOL_OF_OPERATION: Readonly<Record<string, string>> = { startSession: 'session_start' };
const OPERATION_NAMES = new RegExp(`\\b(${Object.keys(TOOL_OF_OPERATION).join('|')})\\b`, 'g');

/** An id as a model sometimes copies it: with the quotes around it ("mem_…"). */
const QUOTED = /^(["'`]).+\1$/s;
const quotedIds = (details: PublicError['details']) =>
  Object.values(details ?? {})
    .flat()
    .some((v) => typeof v === 'string' && QUOTED.test(v));

/**
 * A domain error as a tool names things: its message names tools, not GraphQL operations; an id not found that came
 * wrapped in quotes says so (the quotes are kept as given: an id of the agent's choosing may hold them).
 */
export function toolError(error: PublicError): PublicError {
  let message = error.message.replace(OPERATION_NAMES, (name) => TOOL_OF_OPERATION[name] ?? name);
  if (error.code.endsWith('_NOT_FOUND') && quotedIds(error.details))
    message += ' (the id you gave is wrapped in quotes: pass the id alone, without them)';
  return message === error.message ? error : { ...error, message };
}

/** Runs a tool body; a thrown domain error becomes an error result, never a protocol failure. */
export async function toolResult(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    return errorResult(toolError(publicError(error, 'mcp')));
  }
}

/**
 * Runs a prompt or resource body: a thrown domain error becomes an invalid-params protocol error carrying its code
 * (`data.code`), as a tool's error result carries it; the SDK would make it an internal error without one.
 */
export async function protocolResult<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof McpError) throw error;
    const e = publicError(error, 'mcp');
    throw new McpError(ErrorCode.InvalidParams, `${e.code}: ${e.message}`, { code: e.code });
  }
}

/**
 * The SDK's own failures (arguments that do not match the input schema, an
 * unknown tool) come back as error results without a code; this gives them
 * the codes GraphQL uses for the same mistakes.
 */
export function sdkErrorResult(message: string, tools: readonly string[] = []): CallToolResult {
  const code = /Input validation error/.test(message) ? 'BAD_USER_INPUT' : 'BAD_REQUEST';
  const said = message
    .replace(/^MCP error -?\d+: /, '')
    // A tool name the model made up ("search", "store_memory"): name the ones there are.
    .replace(/^Tool (.+) not found$/, (_all, name: string) =>
      tools.length > 0 ? `unknown tool "${name}"; the tools are: ${tools.join(', ')}` : `unknown tool "${name}"`,
    )
    // "expected string, received undefined at query": the argument is missing, say so.
    .replace(/Invalid input: expected (\w+), received undefined at (\S+)/g, 'missing required argument "$2" (a $1)');
  return errorResult({ code, message: said });
}
