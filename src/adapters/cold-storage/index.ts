/**
 * Cold storage: versioned NDJSON exports of the graph (memories,
 * associations, sessions, decisions, uses, events, notifications — every node
 * and relationship in scope), written atomically and verified against Neo4j:
 * a full export starts a chain, and each delta after it holds only what
 * changed since the last verified export. `npm run import -- FILE_OR_DIR`
 * restores a chain exactly. Format: docs/cold-storage.md.
 */
import type { ColdStoragePort, ColdStorageCheck, ColdStorageWrite } from '../../contexts/subconscious/index.js';
import { LosslessGraph } from './lossless-graph.js';
import type { Neo4jSettings } from '../neo4j/index.js';
import { writeExport, type ExportResult } from './export.js';
import { writeDelta } from './delta.js';
import { compactChain, type CompactResult } from './compact.js';
import { readHead, readTrailer, writeHead } from './head.js';
import { verifyExport } from './verify.js';
import { importChain, type ImportOptions, type ImportReport } from './import.js';
import type { Counts } from './format.js';
import type { ProgressBoard } from '../../domain/index.js';
import { dirname, resolve } from 'node:path';

export interface ColdStorageOptions {
  readonly neo4j: Neo4jSettings;
  /** Only these stores (null = the whole database). */
  readonly stores: readonly string[] | null;
  readonly service: string;
  /** Where exports and imports report how far they got (health, the CLI). */
  readonly progress?: ProgressBoard;
}

export interface WriteOptions {
  /** A full export even when a delta could follow the last verified one (`npm run export`). */
  readonly full?: boolean;
  readonly onProgress?: (records: number) => void;
}

export type ColdStorageWritten = ColdStorageWrite & {
  readonly counts: Counts;
  readonly digest: string;
  readonly sha256: string;
};

export class ColdStorage implements ColdStoragePort {
  private graph: LosslessGraph | null = null;
  /** The compactions under way (shutdown stops them). */
  private readonly compacting = new Set<AbortController>();

  constructor(private readonly options: ColdStorageOptions) {}

  /** Opened on first use: most processes never write cold storage. */
  private lossless(): LosslessGraph {
    this.graph ??= new LosslessGraph(this.options.neo4j);
    return this.graph;
  }

  /**
   * A delta after the last verified export when that file is in `dir` and
   * intact at its end, else (or with `full`) a full export.
   */
  async write(dir: string, options: WriteOptions = {}): Promise<ColdStorageWritten> {
    const { stores, service } = this.options;
    const head = options.full ? null : await readHead(this.lossless(), stores);
    const follows =
      head !== null &&
      resolve(dirname(head.path)) === resolve(dir) &&
      (await readTrailer(head.path).catch(() => null))?.sha256 === head.sha256;
    const tracked = this.options.progress?.start('export', stores?.join(',') ?? null, 'nodes and relationships');
    const onProgress = (n: number) => {
      tracked?.update(n);
      options.onProgress?.(n);
    };
    let result: ExportResult;
    try {
      result = follows
        ? await writeDelta(this.lossless(), dir, head, { stores, service, onProgress })
        : await writeExport(this.lossless(), dir, { stores, service, onProgress });
    } catch (error) {
      tracked?.fail();
      throw error;
    }
    tracked?.finish();
    const delta = result.header.kind === 'delta';
    return {
      path: result.path,
      kind: delta ? 'delta' : 'full',
      bytes: result.bytes,
      nodes: result.counts.totalNodes,
      relationships: result.counts.totalRelationships,
      deleted: result.deleted,
      // Counts are by label combination: a memory's carries its tier (LONG_TERM:Memory, …). A delta's are changes.
      memories: delta
        ? null
        : Object.entries(result.counts.nodes).reduce(
            (n, [key, count]) => (key.split(':').includes('Memory') ? n + count : n),
            0,
          ),
      counts: result.counts,
      digest: result.digest,
      sha256: result.sha256,
    };
  }

  /** Checks an export against Neo4j; a verified one becomes the head the next delta follows. */
  async verify(path: string): Promise<ColdStorageCheck> {
    const graph = this.lossless();
    const check = await verifyExport(graph, path, await readHead(graph, this.options.stores));
    if (check.verified && check.until !== null)
      await writeHead(graph, this.options.stores, { path: resolve(path), sha256: check.sha256, until: check.until });
    return { verified: check.verified, problems: check.problems };
  }

  /** The background's full export: the chain rewritten as one file (compact.ts). */
  async compact(): Promise<CompactResult> {
    const { stores, service } = this.options;
    const stop = new AbortController();
    this.compacting.add(stop);
    try {
      return await compactChain(this.lossless(), { stores, service }, stop.signal);
    } finally {
      this.compacting.delete(stop);
    }
  }

  /** Shutdown begins: a compaction under way stops (it runs again after the restart), so the drain need not wait. */
  stopCompacting(): void {
    for (const stop of this.compacting)
      stop.abort(new Error('shutting down: the compaction stops and runs again later'));
  }

  /** Restores the chain ending in `target` (a file, or the newest in a folder). */
  async import(target: string, options: ImportOptions = {}): Promise<ImportReport> {
    const tracked = this.options.progress?.start('import', null, 'nodes and relationships');
    try {
      const report = await importChain(this.lossless(), target, {
        ...options,
        onProgress: (done: number, total: number) => {
          tracked?.update(done, total);
          options.onProgress?.(done, total);
        },
      });
      tracked?.finish();
      return report;
    } catch (error) {
      tracked?.fail();
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.graph?.close();
    this.graph = null;
  }
}

export { ImportRefused } from './import.js';
export type { ImportOptions, ImportReport } from './import.js';
export type { CompactResult } from './compact.js';
export type { Counts } from './format.js';
