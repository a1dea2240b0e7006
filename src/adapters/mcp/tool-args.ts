/** What the MCP tools share: common arguments, annotations, time parsing and the caller's view helpers. */
import { z } from 'zod';
import { InvalidInputError, REFLECTION_SCOPES, requireWrite } from '../../domain/index.js';
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

// ── Arguments as agents send them ─────────────────────────────────────────
// Models often write a number as a JSON string ("5"), one label where a list is asked for ("travel"), or an enum in
// lower case ("long_term"). Each is read as the one value it can mean; anything else is refused by the schema, which
// names the argument. The listed JSON Schema stays the strict one (integer, array, enum).

/** A decimal number written as a string, spaces around it allowed: no hex, no exponent, no empty string. */
const DECIMAL = /^\s*-?(\d+(\.\d*)?|\.\d+)\s*$/;
const numberFromString = (v: unknown) => (typeof v === 'string' && DECIMAL.test(v) ? Number(v) : v);
const booleanFromString = (v: unknown) => (v === 'true' ? true : v === 'false' ? false : v);
const listOfOne = (v: unknown) => (typeof v === 'string' ? [v] : v);
/** Spaces and line ends around an id are never part of it (ids are stored trimmed). */
const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

/**
 * An integer argument; "5" reads as 5, "2.5" stays refused. Its listed JSON Schema carries the range the service
 * checks (the service's own check answers a value out of it, with the code GraphQL gives), not ±2^53.
 */
export const integer = (range: { minimum?: number; maximum?: number } = {}) =>
  z.preprocess(
    numberFromString,
    z
      .number()
      .int()
      .meta({ minimum: undefined, maximum: undefined, ...range }),
  );
/** A number argument; "0.5" reads as 0.5. */
export const number = () => z.preprocess(numberFromString, z.number());
/** A boolean argument; exactly "true" and "false" read as the booleans. */
export const boolean = () => z.preprocess(booleanFromString, z.boolean());
/** A list argument; one value alone reads as a list of one. */
export const list = <T extends z.ZodType>(item: T) => z.preprocess(listOfOne, z.array(item));
/** One of `values` (all upper case): a value in another case reads as that value. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => {
    const upper = typeof v === 'string' ? v.trim().toUpperCase() : v;
    return typeof upper === 'string' && (values as readonly string[]).includes(upper) ? upper : v;
  }, z.enum(values));
/** An id the service gave (or the agent chose): spaces and line ends around it are dropped. */
export const id = (what: string) => z.preprocess(trimmed, z.string()).describe(what);
/** A JSON object argument (metadata, state): any keys. */
export const jsonObject = (what: string) => z.looseObject({}).optional().describe(what);

/** What reflect and reflect_session take beside the store: which memories to look at, and how many at most. */
export const reflectionArgs = (defaultLimit: number) => ({
  scope: oneOf(REFLECTION_SCOPES).optional().describe('ALL (default), STALE, RECENT or WEAK_ASSOCIATIONS.'),
  timeSpanDays: number()
    .optional()
    .describe(
      'Days, a whole number of at least 1: STALE looks for memories untouched that long (default 30), RECENT ' +
        'and WEAK_ASSOCIATIONS for memories stored within it (default 1 and 365).',
    ),
  limit: integer({ minimum: 1, maximum: 200 })
    .optional()
    .describe(`Most candidates, 1 to 200 (default ${defaultLimit}).`),
});

export const labels = (what: string) => list(z.string()).optional().describe(what);

/**
 * A tool's arguments: an unknown one is refused, naming it and the arguments the tool takes. Left out, a misspelled
 * `tag` or `limits` would be ignored and the call would do something else than asked (store a memory without its
 * tag, recall without the filter), as GraphQL refuses an unknown argument.
 */
export function toolInput<S extends z.ZodRawShape>(shape: S) {
  const names = Object.keys(shape);
  const takes = names.length ? `this tool takes: ${names.join(', ')}` : 'this tool takes no arguments';
  const unknown = (keys: string[]) =>
    `unknown argument${keys.length > 1 ? 's' : ''} ${keys.map((k) => JSON.stringify(k)).join(', ')} (${takes})`;
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknown(issue.keys) : undefined),
  });
}

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
  /** The instance a session tool acts for: the argument, else the connection's; neither is a mistake to explain. */
  const instance = (id: string | undefined): string => {
    // Session tools write: a reader is told so, not to send a header it may have sent (its token takes none).
    requireWrite(caller.access);
    const named = id ?? caller.instanceId;
    if (named === null)
      throw new InvalidInputError(
        'CORTEX.INVALID_INSTANCE_ID',
        'instanceId is required: your connection does not name your instance (no x-instance-id header), so pass ' +
          '`instanceId`, a name of your choosing for this process (such as "claude-7f3a"), and the same one to ' +
          'every session tool and to remember, recall and context',
      );
    return named;
  };
  return { ports, caller, memory, instance, salienceOf: ports.salienceOf };
}
