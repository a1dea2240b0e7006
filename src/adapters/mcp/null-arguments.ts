/**
 * A tool argument given as null means what leaving it out means, as over GraphQL. Agents often send null for every
 * optional argument (function calling in strict mode writes each one); the tools' schemas take a value or nothing.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isJsonObject } from '../../domain/index.js';

/** The message with a tool call's top-level null arguments left out (nested nulls, inside metadata say, stay). */
export function withoutNullArguments(message: JSONRPCMessage): JSONRPCMessage {
  if (!('method' in message) || message.method !== 'tools/call' || !isJsonObject(message.params)) return message;
  const args = message.params.arguments;
  if (!isJsonObject(args) || !Object.values(args).includes(null)) return message;
  const given = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null));
  return { ...message, params: { ...message.params, arguments: given } } as JSONRPCMessage;
}
