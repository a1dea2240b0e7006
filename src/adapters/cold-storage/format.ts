/**
 * The cold-storage format (docs/cold-storage.md): NDJSON, one header line,
 * then the records, then a trailer with counts, the SHA-256 of every byte
 * before it and an order-independent digest of the content. A full export
 * holds every node and relationship; a delta (version 2) holds what changed
 * since the file it follows: deleted nodes, then changed nodes with all their
 * outgoing relationships. Values: values.ts.
 */
import { createHash } from 'node:crypto';
import type { Json } from './values.js';

export const FORMAT = 'total-recall-cold-storage';
/**
 * 2: vectors as base64, deltas and their chain. 3: a memory's derived
 * properties are left out. Readers still read 1 and 2.
 */
export const FORMAT_VERSION = 3;

/**
 * A memory's properties that are recomputed from the others: Salience's
 * materialised score and when it was taken. Recall and the API compute the
 * score from the kept inputs and never read these; the decay sweep rewrites
 * them for nearly every memory each day, so keeping them would make the delta
 * after a day's run as large as the memories' part of a full export. From
 * version 3 no file holds them; the first sweep after a restore writes them.
 */
export const DERIVED_MEMORY_PROPERTIES: readonly string[] = ['salience', 'salienceAt'];

/** A node's properties as version `version` keeps them. */
export function keptProps<T>(labels: readonly string[], props: Record<string, T>, version: number): Record<string, T> {
  if (version < 3 || !labels.includes('Memory')) return props;
  return Object.fromEntries(Object.entries(props).filter(([key]) => !DERIVED_MEMORY_PROPERTIES.includes(key)));
}

export interface Header {
  readonly type: 'header';
  readonly format: typeof FORMAT;
  readonly version: number;
  readonly createdAt: string;
  readonly service: string;
  readonly scope: { readonly stores: readonly string[] | null };
  /** Version 2: `full` (a chain's first file) or `delta`. Version 1 files are full. */
  readonly kind?: 'full' | 'delta';
  /** A delta: the sha256 of the file it follows (its trailer's `sha256`). */
  readonly previous?: string | null;
  /** A delta: it holds what was stamped (`changedAt`, Neo4j's clock in ms) at or after this. */
  readonly since?: number | null;
  /** Neo4j's clock when the export began reading: the next delta takes what was stamped from here on. */
  readonly until?: number | null;
}

/** A delta's deleted node, by its key (`#id`). */
export interface DeletedLine {
  readonly type: 'deleted';
  readonly key: string;
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
  /** A delta: how many `deleted` lines it holds. */
  readonly deleted?: number;
  readonly digest: string;
  readonly sha256: string;
}

export type Line = Header | DeletedLine | NodeLine | RelationshipLine | Trailer;

export const fileKind = (header: Header): 'full' | 'delta' => header.kind ?? 'full';

// ── records and digests ─────────────────────────────────────────────────────

/** A record of a file as its readers see it: a deleted key (a delta's), a node or a relationship. */
export type FileRecord = NodeLine | RelationshipLine | { readonly type: 'deleted'; readonly key: string };

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

/**
 * A node's identity across a chain whatever its labels (a memory's tier label
 * changes): `#id`, or the ref of a node without an id (`~elementId`).
 */
export const nodeKey = (ref: string): string => (ref.startsWith('~') ? ref : ref.slice(ref.indexOf('#')));

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const MODULUS = 2n ** 256n;

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
    this.sum = (this.sum + BigInt(`0x${sha256(canonical)}`)) % MODULUS;
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

/**
 * A stamp is taken when its statement starts and becomes visible when its
 * transaction commits. A write that stamped just before the previous export's
 * clock reading but committed after that export read the graph would be in
 * neither file, so a delta reaches this far back before that reading. What
 * it holds twice, import applies twice to the same end (upserts, deletes).
 */
export const COMMIT_OVERLAP_MS = 5 * 60_000;
