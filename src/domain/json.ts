import { InvalidInputError } from './errors.js';

/** JSON kept as text on nodes (metadata, payloads, state) read back as a value. */
export function parseJsonText(raw: unknown): unknown {
  if (typeof raw !== 'string') return null;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * Largest JSON argument (metadata, action, context), as UTF-8 JSON text: the outer bound (metadata and session state
 * have their own, smaller caps).
 */
export const MAX_JSON_BYTES = 256 * 1024;
/** Deepest nesting of a JSON argument (objects and arrays). */
export const MAX_JSON_DEPTH = 20;

/** Depth of a JSON value, walked without recursion (a deep value cannot overflow the stack), stopping past `max`. */
export function jsonDepth(value: unknown, max: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (item === null || typeof item !== 'object') continue;
    const here = depth + 1;
    if (here > deepest) deepest = here;
    if (deepest > max) return deepest;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, here]);
  }
  return deepest;
}

export const jsonTooDeep = () =>
  new InvalidInputError('JSON_TOO_DEEP', `JSON is nested deeper than ${MAX_JSON_DEPTH} levels`);

/**
 * A JSON argument (metadata, action, context) as text, within the caps every adapter applies (GraphQL's JSON scalar,
 * the MCP tools through the rules that store it): the depth is checked first, since JSON.stringify of thousands of
 * levels overflows the stack.
 */
/** A JSON object (not an array, not null). */
export const isJsonObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function jsonArgumentText(value: unknown): string {
  if (jsonDepth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw jsonTooDeep();
  const text = JSON.stringify(value) ?? 'null';
  if (Buffer.byteLength(text, 'utf8') > MAX_JSON_BYTES)
    throw new InvalidInputError('JSON_TOO_LARGE', `JSON is larger than ${MAX_JSON_BYTES} bytes`);
  return text;
}
