/**
 * Property values in the cold-storage format: JSON plus, per record, the
 * Neo4j type of each property JSON alone would not say (`types`). Version 2
 * writes a list of floats (an embedding) as base64 of its little-endian
 * float32 values when every value is one exactly, else of its float64 values:
 * exact either way, and a fifth (float32) of the JSON text.
 */
import neo4j from 'neo4j-driver';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export const FLOAT32_VECTOR = 'Vector<Float32>';
export const FLOAT64_VECTOR = 'Vector<Float64>';

/** A float list as base64 of little-endian float32 (when lossless) or float64, with its type name. */
export function encodeVector(values: readonly number[]): [string, string] {
  const narrow = values.every((v) => Object.is(Math.fround(v), v) || Number.isNaN(v));
  const width = narrow ? 4 : 8;
  const buffer = Buffer.allocUnsafe(values.length * width);
  for (let i = 0; i < values.length; i++) {
    if (narrow) buffer.writeFloatLE(values[i] as number, i * 4);
    else buffer.writeDoubleLE(values[i] as number, i * 8);
  }
  return [buffer.toString('base64'), narrow ? FLOAT32_VECTOR : FLOAT64_VECTOR];
}

export function decodeVector(base64: string, type: string): number[] {
  const buffer = Buffer.from(base64, 'base64');
  const width = type === FLOAT32_VECTOR ? 4 : 8;
  if (buffer.length % width !== 0) throw new Error(`a ${type} of ${buffer.length} bytes`);
  const out = new Array<number>(buffer.length / width);
  for (let i = 0; i < out.length; i++) out[i] = width === 4 ? buffer.readFloatLE(i * 4) : buffer.readDoubleLE(i * 8);
  return out;
}

/** A non-empty list of JS numbers: a Neo4j List<Float> (the lossless driver gives integers as Integer). */
const isFloatList = (value: unknown): value is number[] =>
  Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'number');

// date T time, fraction, offset, [zone id]
const ISO_DATE_TIME = new RegExp(
  String.raw`^(-?\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?` +
    String.raw`(Z|[+-]\d{2}:\d{2}(?::\d{2})?)?(?:\[([^\]]+)\])?$`,
);
const ISO_DATE = /^(-?\d{4,})-(\d{2})-(\d{2})$/;

const isTemporal = (v: unknown, check: (x: never) => boolean) =>
  v !== null && typeof v === 'object' && check(v as never);

/** One value in JSON form and its type name (null for the types JSON states itself). */
function encodeScalar(value: unknown, where: string): [Json, string | null] {
  if (typeof value === 'string') return [value, null];
  if (typeof value === 'boolean') return [value, null];
  if (typeof value === 'number') return Number.isFinite(value) ? [value, null] : [String(value), 'Float'];
  if (neo4j.isInt(value)) {
    const int = value as unknown as { inSafeRange(): boolean; toNumber(): number; toString(): string };
    return [int.inSafeRange() ? int.toNumber() : int.toString(), 'Integer'];
  }
  if (isTemporal(value, neo4j.isDateTime)) return [String(value), 'DateTime'];
  if (isTemporal(value, neo4j.isLocalDateTime)) return [String(value), 'LocalDateTime'];
  if (isTemporal(value, neo4j.isDate)) return [String(value), 'Date'];
  throw new Error(`cold storage cannot keep ${Object.prototype.toString.call(value)} values yet (${where})`);
}

function encodeValue(value: unknown, where: string): [Json, string | null] {
  if (!Array.isArray(value)) return encodeScalar(value, where);
  const items = value.map((v) => encodeScalar(v, where));
  const types = new Set(items.map(([, t]) => t));
  // A float list with a NaN in it is still a float list.
  if (types.size === 2 && types.has(null) && types.has('Float')) types.delete(null);
  const [only] = types;
  if (types.size > 1) throw new Error(`mixed list at ${where}`);
  return [items.map(([v]) => v), only ? `List<${only}>` : null];
}

/**
 * A property map from a lossless driver as JSON plus the types JSON cannot tell;
 * in `version` 1's form (float lists as JSON numbers) or 2's (as base64).
 */
export function encodeProps(
  props: Record<string, unknown>,
  where: string,
  version = 2,
): { props: Record<string, Json>; types: Record<string, string> } {
  const out: Record<string, Json> = {};
  const types: Record<string, string> = {};
  for (const key of Object.keys(props).sort()) {
    const raw = props[key];
    const [value, type] = version >= 2 && isFloatList(raw) ? encodeVector(raw) : encodeValue(raw, `${where}.${key}`);
    out[key] = value;
    if (type) types[key] = type;
  }
  return { props: out, types };
}

function decodeScalar(value: Json, type: string | null): unknown {
  switch (type) {
    case null:
      return value;
    case 'Float':
      return Number(value);
    case 'Integer':
      return neo4j.int(value as number | string);
    case 'DateTime': {
      const m = ISO_DATE_TIME.exec(String(value));
      if (!m) throw new Error(`not a DateTime: ${String(value)}`);
      const [, y, mo, d, h, mi, s, frac, offset, zone] = m;
      const ns = Number((frac ?? '').padEnd(9, '0'));
      const offsetSeconds = zone ? undefined : offsetToSeconds(offset ?? 'Z');
      return new neo4j.types.DateTime(
        Number(y),
        Number(mo),
        Number(d),
        Number(h),
        Number(mi),
        Number(s),
        ns,
        offsetSeconds,
        zone,
      );
    }
    case 'LocalDateTime': {
      const m = ISO_DATE_TIME.exec(String(value));
      if (!m) throw new Error(`not a LocalDateTime: ${String(value)}`);
      const [, y, mo, d, h, mi, s, frac] = m;
      return new neo4j.types.LocalDateTime(
        Number(y),
        Number(mo),
        Number(d),
        Number(h),
        Number(mi),
        Number(s),
        Number((frac ?? '').padEnd(9, '0')),
      );
    }
    case 'Date': {
      const m = ISO_DATE.exec(String(value));
      if (!m) throw new Error(`not a Date: ${String(value)}`);
      return new neo4j.types.Date(Number(m[1]), Number(m[2]), Number(m[3]));
    }
    default:
      throw new Error(`unknown property type ${type}`);
  }
}

function offsetToSeconds(offset: string): number {
  if (offset === 'Z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  const [h, m, s] = offset.slice(1).split(':').map(Number);
  return sign * ((h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0));
}

/** Back to driver values (integers as Integer, times as temporal objects). */
export function decodeProps(props: Record<string, Json>, types: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(props)) {
    const type = types[key] ?? null;
    if (type === FLOAT32_VECTOR || type === FLOAT64_VECTOR) {
      out[key] = decodeVector(String(value), type);
      continue;
    }
    const list = type?.match(/^List<(.+)>$/);
    out[key] =
      list || Array.isArray(value)
        ? (value as Json[]).map((v) => decodeScalar(v, list?.[1] ?? null))
        : decodeScalar(value, type);
  }
  return out;
}

/** A version 1 record in version 2's form (float lists as base64), the form the live graph is read in. */
export function asVersion2<L extends { readonly props: Record<string, Json>; readonly types: Record<string, string> }>(
  line: L,
  where: string,
): L {
  return { ...line, ...encodeProps(decodeProps(line.props, line.types), where, 2) };
}
