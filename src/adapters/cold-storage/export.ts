/**
 * Writes a cold-storage export atomically: to a temporary file in the target
 * folder, synced, then renamed into place (and the folder synced), so the
 * folder never holds a half-written export under its final name.
 */
import { createHash } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { FORMAT, FORMAT_VERSION, GraphDigest, type Counts, type Header, type Line, type Trailer } from './format.js';
import { readGraph } from './read-graph.js';
import type { LosslessGraph } from './lossless-graph.js';

export interface ExportResult {
  readonly path: string;
  readonly bytes: number;
  readonly counts: Counts;
  readonly digest: string;
  readonly sha256: string;
}

const FLUSH_BYTES = 1 << 20;
const PROGRESS_EVERY = 1000;

export function exportFileName(now = new Date()): string {
  return `total-recall-${now.toISOString().replace(/[:.]/g, '-')}-${process.pid}.ndjson`;
}

export async function writeExport(
  graph: LosslessGraph,
  dir: string,
  options: {
    readonly stores: readonly string[] | null;
    readonly service: string;
    /** Called every PROGRESS_EVERY records and at the end: nodes and relationships written so far. */
    readonly onProgress?: (records: number) => void;
  },
): Promise<ExportResult> {
  await mkdir(dir, { recursive: true });
  const name = exportFileName();
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
  const counted = () => {
    records += 1;
    if (records % PROGRESS_EVERY === 0) options.onProgress?.(records);
  };
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
  try {
    const header: Header = {
      type: 'header',
      format: FORMAT,
      version: FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      service: options.service,
      scope: { stores: options.stores },
    };
    await write(header);
    await readGraph(graph, options.stores, {
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
    return { path, bytes, counts: trailer.counts, digest: trailer.digest, sha256: trailer.sha256 };
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw error;
  }
}
