/**
 * DateTime (ISO-8601 strings with a real calendar date, in and out) and a
 * JSON scalar with a size cap and a nesting cap, both refused with a typed
 * error before anything runs.
 */
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { GraphQLJSON } from 'graphql-scalars';
import {
  InvalidInputError,
  jsonArgumentText,
  jsonTooDeep,
  MAX_JSON_BYTES,
  MAX_JSON_DEPTH,
} from '../../domain/index.js';

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

const badInput = (message: string, code = 'BAD_USER_INPUT') => new GraphQLError(message, { extensions: { code } });

/** Epoch ms of an ISO-8601 string whose date exists (2026-02-30 does not); null otherwise. */
export function parseIsoDateTime(text: string): number | null {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > days) return null;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return null;
  const offset = m[7];
  if (offset && offset !== 'Z' && (Number(offset.slice(1, 3)) > 23 || Number(offset.slice(-2)) > 59)) return null;
  // A date alone, or a time without an offset, is UTC.
  const normalised =
    m[4] === undefined
      ? `${m[1]}-${m[2]}-${m[3]}T00:00:00Z`
      : offset
        ? text.trim().replace(' ', 'T')
        : `${text.trim().replace(' ', 'T')}Z`;
  const ms = Date.parse(normalised);
  return Number.isFinite(ms) ? ms : null;
}

function toMillis(value: unknown): number {
  const ms = typeof value === 'string' ? parseIsoDateTime(value) : null;
  if (ms === null)
    throw badInput(
      'DateTime must be an ISO-8601 string with a real date, such as 2026-05-01T12:00:00Z',
      'INVALID_DATETIME',
    );
  return ms;
}

/** Internally a DateTime is epoch milliseconds. */
export const DateTimeScalar = new GraphQLScalarType<number, string>({
  name: 'DateTime',
  description:
    'A point in time, ISO-8601 (UTC) in results; ISO-8601 strings with a real calendar date accepted as input.',
  serialize: (value) =>
    new Date(
      value instanceof Date ? value.getTime() : typeof value === 'number' ? value : toMillis(value),
    ).toISOString(),
  parseValue: (value) => toMillis(value),
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw badInput('DateTime literals must be strings', 'INVALID_DATETIME');
    return toMillis(ast.value);
  },
});

/** A domain refusal as a GraphQLError, which keeps its code through graphql-js's wrapping (errors.ts). */
const refused = (error: InvalidInputError) => badInput(error.message, error.code);

/** A JSON argument within the caps (the domain's, which the MCP tools apply too), else a typed error. */
export function boundedJson(value: unknown): unknown {
  try {
    jsonArgumentText(value);
  } catch (error) {
    throw error instanceof InvalidInputError ? refused(error) : error;
  }
  return value;
}

/** Nesting of a literal's AST, without recursion. */
function literalDepth(ast: ValueNode, max: number): number {
  let deepest = 0;
  const stack: [ValueNode, number][] = [[ast, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [ValueNode, number];
    if (node.kind !== Kind.OBJECT && node.kind !== Kind.LIST) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > max) return deepest;
    const children = node.kind === Kind.OBJECT ? node.fields.map((f) => f.value) : node.values;
    for (const child of children) stack.push([child, depth + 1]);
  }
  return deepest;
}

export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description: `Any JSON value, at most ${MAX_JSON_BYTES} bytes and ${MAX_JSON_DEPTH} levels deep.`,
  serialize: (value) => GraphQLJSON.serialize(value),
  parseValue: (value) => boundedJson(value),
  parseLiteral: (ast, variables) => {
    if (literalDepth(ast, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw refused(jsonTooDeep());
    return boundedJson(GraphQLJSON.parseLiteral(ast, variables));
  },
});
