/**
 * Writes a cold-storage file atomically: to a temporary file in the target
 * folder, synced, then renamed into place (and the folder synced), so the
 * folder never holds a half-written export under its final name. The records
 * come from a producer: the live graph (a full export), its changes (a delta,
 * delta.ts) or a chain of files (a compaction, compact.ts).
 */
import { createHash } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  COMMIT_OVERLAP_MS,
  FORMAT,
  FORMAT_VERSION,
  GraphDigest,
  type Counts,
  type Header,
  type Line,
  type NodeLine,
  type RelationshipLine,
  type Trailer,
} from './format.js';
import { neo4jNow, readGraph } from './read-graph.js';
import type { LosslessGraph } from './lossless-graph.js';
import { removeOrphans } from './orphans.js';
import { processLogger } from '../logger.js';

export interface ExportResult {
  readonly path: string;
  readonly bytes: number;
  readonly header: Header;
  readonly counts: Counts;
  readonly deleted: number;
  readonly digest: string;
  readonly sha256: string;
}

export interface ExportOptions {
  readonly stores: readonly string[] | null;
  readonly service: string;
  /** Called every PROGRESS_EVERY records and at the end: records written so far. */
  readonly onProgress?: (records: number) => void;
}

/** What a producer hands the writer: deleted keys first (deltas only), then nodes, then relationships. */
export interface RecordSink {
  deleted(key: string): Promise<void>;
  node(line: NodeLine): Promise<void>;
  relationship(line: RelationshipLine): Promise<void>;
}

const FLUSH_BYTES = 1 << 20;
const PROGRESS_EVERY = 1000;

export function exportFileName(kind: 'full' | 'delta' = 'full', now = new Date()): string {
  const time = now.toISOString().replace(/[:.]/g, '-');
  return `total-recall-${time}-${process.pid}${kind === 'delta' ? '-delta' : ''}.ndjson`;
}

/** Header fields a producer chooses: the kind and the chain's link and times. */
export type HeaderFields = Pick<Header, 'kind' | 'previous' | 'since' | 'until'>;

export async function writeColdFile(
  dir: string,
  fields: HeaderFields,
  options: ExportOptions,
  produce: (sink: RecordSink) => Promise<void>,
): Promise<ExportResult> {
  await mkdir(dir, { recursive: true });
  // Every export passes here: what a killed one left in this folder goes before this one writes.
  await removeOrphans(dir, processLogger());
  const name = exportFileName(fields.kind);
  const path = join(dir, name);
  const tmp = join(dir, `.${name}.tmp`);
  // Every store's memories: readable by the service's user only.
  const file = await open(tmp, 'wx', 0o600);
  const hash = createHash('sha256');
  const digest = new GraphDigest();
  let pending: string[] = [];
  let pendingBytes = 0;
  let bytes = 0;
  let records = 0;
  let deleted = 0;
  const flush = async () => {
    if (pending.length === 0) return;
    await file.write(pending.join(''));
    pending = [];
    pendingBytes = 0;
  };
  const write = async (line: Line, hashed = true) => {
    const text = `${JSON.stringify(line)}\n`;
    if (hashed) hash.update(text);
    const size = Buffer.byteLength(text);
    bytes += size;
    pending.push(text);
    pendingBytes += size;
    if (pendingBytes >= FLUSH_BYTES) await flush();
  };
  const counted = () => {
    records += 1;
    if (records % PROGRESS_EVERY === 0) options.onProgress?.(records);
  };
  try {
    const header: Header = {
      type: 'header',
      format: FORMAT,
      version: FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      service: options.service,
      scope: { stores: options.stores },
      ...fields,
    };
    await write(header);
    await produce({
      deleted: (key) => {
        deleted++;
        return write({ type: 'deleted', key });
      },
      node: (line) => {
        digest.node(line);
        counted();
        return write(line);
      },
      relationship: (line) => {
        digest.relationship(line);
        counted();
        return write(line);
      },
    });
    options.onProgress?.(records);
    const trailer: Trailer = {
      type: 'trailer',
      counts: digest.counts(),
      ...(fields.kind === 'delta' ? { deleted } : {}),
      digest: digest.digest(),
      sha256: hash.digest('hex'),
    };
    await write(trailer, false);
    await flush();
    await file.sync();
    await file.close();
    await rename(tmp, path);
    const folder = await open(dir, 'r');
    await folder.sync().finally(() => folder.close());
    return { path, bytes, header, counts: trailer.counts, deleted, digest: trailer.digest, sha256: trailer.sha256 };
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw error;
  }
}

/** A full export: every node and relationship in scope; a new chain starts with it. */
export async function writeExport(graph: LosslessGraph, dir: string, options: ExportOptions): Promise<ExportResult> {
  const until = await neo4jNow(graph);
  return writeColdFile(dir, { kind: 'full', previous: null, since: null, until }, options, (sink) =>
    readGraph(graph, options.stores, sink, FORMAT_VERSION, until - COMMIT_OVERLAP_MS),
  );
}
