/**
 * The cold-storage format (docs/cold-storage.md): NDJSON, one header line,
 * then every node, then every relationship, then a trailer with counts, the
 * SHA-256 of every byte before it and an order-independent digest of the
 * content. Property values keep their Neo4j types: what JSON cannot say on its
 * own (integers, temporal values) is named in each record's `types`.
 */
import { createHash } from 'node:crypto';
import neo4j from 'neo4j-driver';

export const FORMAT = 'total-recall-cold-storage';
export const FORMAT_VERSION = 1;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Header {
  readonly type: 'header';
  readonly format: typeof FORMAT;
  readonly version: number;
  readonly createdAt: string;
  readonly service: string;
  readonly scope: { readonly stores: readonly string[] | null };
}

export interface NodeLine {
  readonly type: 'node';
  /** `Label#id` for a node with an id, `~elementId` otherwise; relationships name their ends by it. */
  readonly ref: string;
  readonly labels: readonly string[];
  readonly props: Record<string, Json>;
  readonly types: Record<string, string>;
}

export interface RelationshipLine {
  readonly type: 'relationship';
  readonly rel: string;
  readonly start: string;
  readonly end: string;
  readonly props: Record<string, Json>;
  readonly types: Record<string, string>;
}

export interface Counts {
  /** By label combination (`Memory`, `Session`, …). */
  readonly nodes: Record<string, number>;
  /** By relationship type (`THEMATIC`, `ABOUT`, …). */
  readonly relationships: Record<string, number>;
  readonly totalNodes: number;
  readonly totalRelationships: number;
}

export interface Trailer {
  readonly type: 'trailer';
  readonly counts: Counts;
  readonly digest: string;
  readonly sha256: string;
}

export type Line = Header | NodeLine | RelationshipLine | Trailer;

// ── values ──────────────────────────────────────────────────────────────────

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

/** A property map from a lossless driver as JSON plus the types JSON cannot tell. */
export function encodeProps(
  props: Record<string, unknown>,
  where: string,
): { props: Record<string, Json>; types: Record<string, string> } {
  const out: Record<string, Json> = {};
  const types: Record<string, string> = {};
  for (const key of Object.keys(props).sort()) {
    const [value, type] = encodeValue(props[key], `${where}.${key}`);
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
    const list = type?.match(/^List<(.+)>$/);
    out[key] =
      list || Array.isArray(value)
        ? (value as Json[]).map((v) => decodeScalar(v, list?.[1] ?? null))
        : decodeScalar(value, type);
  }
  return out;
}

// ── records and digests ─────────────────────────────────────────────────────

/** JSON with object keys sorted, so equal content is equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export const labelKey = (labels: readonly string[]) => [...labels].sort().join(':');

export function nodeRef(labels: readonly string[], id: unknown, elementId: string): string {
  return typeof id === 'string' ? `${labelKey(labels)}#${id}` : `~${elementId}`;
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A node's identity in any database: its ref when it has an id, else a hash of its content. */
export function canonicalNodeRef(line: NodeLine): string {
  return line.ref.startsWith('~')
    ? `~${sha256(canonicalJson({ labels: [...line.labels].sort(), props: line.props, types: line.types }))}`
    : line.ref;
}

/**
 * An order-independent digest of a graph: the sum (mod 2^256) of the SHA-256 of
 * every record's canonical form, so an export and a re-read of the live store
 * agree whatever order either came in.
 */
export class GraphDigest {
  private sum = 0n;
  private readonly nodes: Record<string, number> = {};
  private readonly relationships: Record<string, number> = {};
  private totalNodes = 0;
  private totalRelationships = 0;
  /** Canonical refs of id-less nodes (the only ones that differ between databases). */
  private readonly anonymous = new Map<string, string>();
  private readonly kept: string[] | null;

  /** With `keepRecords`, the canonical records are kept too (tests compare two graphs with them). */
  constructor(keepRecords = false) {
    this.kept = keepRecords ? [] : null;
  }

  private keep(canonical: string): string {
    this.kept?.push(canonical);
    return canonical;
  }

  /** The canonical records seen, sorted (only with `keepRecords`). */
  records(): string[] {
    return [...(this.kept ?? [])].sort();
  }

  private add(canonical: string): void {
    this.sum = (this.sum + BigInt(`0x${sha256(canonical)}`)) % 2n ** 256n;
  }

  node(line: NodeLine): void {
    const ref = canonicalNodeRef(line);
    if (ref !== line.ref) this.anonymous.set(line.ref, ref);
    this.add(
      this.keep(
        canonicalJson({ kind: 'node', ref, labels: [...line.labels].sort(), props: line.props, types: line.types }),
      ),
    );
    const key = labelKey(line.labels);
    this.nodes[key] = (this.nodes[key] ?? 0) + 1;
    this.totalNodes++;
  }

  relationship(line: RelationshipLine): void {
    const end = (ref: string) => this.anonymous.get(ref) ?? ref;
    this.add(
      this.keep(
        canonicalJson({
          kind: 'relationship',
          rel: line.rel,
          start: end(line.start),
          end: end(line.end),
          props: line.props,
          types: line.types,
        }),
      ),
    );
    this.relationships[line.rel] = (this.relationships[line.rel] ?? 0) + 1;
    this.totalRelationships++;
  }

  counts(): Counts {
    const sorted = (o: Record<string, number>) =>
      Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
    return {
      nodes: sorted(this.nodes),
      relationships: sorted(this.relationships),
      totalNodes: this.totalNodes,
      totalRelationships: this.totalRelationships,
    };
  }

  digest(): string {
    return this.sum.toString(16).padStart(64, '0');
  }
}

/** The differences between two count sets, as readable lines (empty when equal). */
export function compareCounts(expected: Counts, actual: Counts): string[] {
  const problems: string[] = [];
  for (const kind of ['nodes', 'relationships'] as const) {
    const keys = new Set([...Object.keys(expected[kind]), ...Object.keys(actual[kind])]);
    for (const key of [...keys].sort()) {
      const [e, a] = [expected[kind][key] ?? 0, actual[kind][key] ?? 0];
      if (e !== a) problems.push(`${kind} ${key}: expected ${e}, found ${a}`);
    }
  }
  return problems;
}
