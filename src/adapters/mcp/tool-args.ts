/** What the MCP tools share: common arguments, annotations, time parsing and the caller's view helpers. */
import { z } from 'zod';
import { InvalidInputError } from '../../domain/index.js';
import { parseIsoDateTime } from '../graphql/index.js';
import type { McpContext } from './context.js';
import { memoryView } from './views.js';

export const storeArg = z
  .string()
  .optional()
  .describe(
    'Store (one memory per mind or project). Omit it: the store of the directory you work in, or the service default.',
  );
export const instanceArg = z
  .string()
  .optional()
  .describe(
    'Your instance id (one per running process of a mind). Omit it when your connection names you (x-instance-id).',
  );
export const labels = (what: string) => z.array(z.string()).optional().describe(what);

/**
 * Annotations, said once per kind of tool. Writes are not idempotent: each claim,
 * reclassify and outcome is recorded again and moves salience or usefulness again.
 */
export const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
export const WRITE = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
} as const;

/** An ISO-8601 time read exactly as GraphQL's DateTime reads it (a date alone, or no offset, is UTC). */
export function parseTime(value: string | undefined, field: string): number | null {
  if (value === undefined) return null;
  const ms = parseIsoDateTime(value);
  // The code GraphQL's DateTime scalar gives (scalars.ts).
  if (ms === null)
    throw new InvalidInputError(
      'INVALID_DATETIME',
      `${field} must be an ISO-8601 time with a real date, such as 2026-05-01T12:00:00Z`,
    );
  return ms;
}

/** The ports, the caller, and the helpers every tool file uses to shape its answer. */
export function toolKit(ctx: McpContext) {
  const { ports, caller } = ctx;
  const memory = (m: Parameters<typeof memoryView>[0]) => memoryView(m, ports.salienceOf);
  const instance = (id: string | undefined) => id ?? caller.instanceId ?? '';
  return { ports, caller, memory, instance, salienceOf: ports.salienceOf };
}
